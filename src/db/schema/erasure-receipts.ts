import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * What an agent's erasure removed, kept after the data is gone (docs/adr/0034): when, the epoch it
 * began, rows removed per table and the pending work it cancelled — counts only, never content.
 * Never deleted by an erase (a later erase of the agent adds its own receipt).
 */
export const erasureReceipts = pgTable(
  "erasure_receipts",
  {
    id: text("id").primaryKey(),
    agentId: text("agent_id").notNull(),
    /** The agent's erase count after this one (agent_erasures.epoch): writes after it are this epoch's. */
    epoch: integer("epoch").notNull(),
    erasedAt: timestamp("erased_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Rows removed per table (cascades included), e.g. {"memories": 120, "memory_embeddings": 118}. */
    rows: jsonb("rows").$type<Record<string, number>>().notNull(),
    /** Memories removed per kind. */
    memoriesByKind: jsonb("memories_by_kind").$type<Record<string, number>>().notNull(),
    /** Pending work that will now write nothing, e.g. {"enrichment": 3, "reflectionRuns": 1}. */
    cancelled: jsonb("cancelled").$type<Record<string, number>>().notNull(),
  },
  (t) => [index("erasure_receipts_agent_idx").on(t.agentId, t.erasedAt)],
);
