import { foreignKey, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { memories } from "./memories";
import { vector } from "./vector";

/**
 * Vectors, one per (memory, model). Several models can coexist, so switching models is a
 * backfill while the old vectors keep serving; retrieval reads exactly one model.
 * Stored with `toast_tuple_target = 8160` (migration 0006, which drizzle-kit cannot express):
 * vectors up to ~2,000 dimensions stay in the row, where the exact scan reads them directly.
 */
export const memoryEmbeddings = pgTable(
  "memory_embeddings",
  {
    memoryId: text("memory_id").notNull(),
    agentId: text("agent_id").notNull(),
    model: text("model").notNull(),
    dimensions: integer("dimensions").notNull(),
    embedding: vector("embedding").notNull(),
    /** The memory revision this vector was computed from. */
    revision: integer("revision").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    // Keys lead with the agent (the distribution column under Citus, ADR 0011); a vector always
    // belongs to its memory's agent.
    primaryKey({ columns: [t.agentId, t.memoryId, t.model] }),
    foreignKey({
      columns: [t.agentId, t.memoryId],
      foreignColumns: [memories.agentId, memories.id],
    }).onDelete("cascade"),
    index("memory_embeddings_agent_model_idx").on(t.agentId, t.model),
  ],
);
