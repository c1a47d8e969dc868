import { pgTable, text, uuid } from "drizzle-orm/pg-core";

/**
 * A token per agent that changes with every write that could change an answer (migration 0031's
 * triggers on memories, memory_embeddings and agent_settings): a cached retrieve is valid while
 * the token it was computed under is current. A fresh random value each time, never a counter,
 * so a deleted row starting over cannot bring an old token back.
 */
export const agentGenerations = pgTable("agent_generations", {
  agentId: text("agent_id").primaryKey(),
  generation: uuid("generation").notNull(),
});
