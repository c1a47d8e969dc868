import { foreignKey, index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { memories } from "./memories";

/**
 * What an agent's stream already holds from GitHub, by event identity (`acme/api#issue-5:opened`,
 * `acme/api@<commit sha>`): the webhook path and the repository import both write here, so an
 * event reaching the stream both ways is stored once. Several keys may point at one memory (a
 * push covers several commits); deleting the memory frees its keys.
 */
export const githubEventKeys = pgTable(
  "github_event_keys",
  {
    agentId: text("agent_id").notNull(),
    key: text("key").notNull(),
    memoryId: text("memory_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.key] }),
    // Keys lead with the agent, as the memory's own (ADR 0011).
    foreignKey({
      columns: [t.agentId, t.memoryId],
      foreignColumns: [memories.agentId, memories.id],
    }).onDelete("cascade"),
    // Deleting a memory (or erasing an agent) finds its keys through this, not a scan.
    index("github_event_keys_memory_idx").on(t.agentId, t.memoryId),
  ],
);
