import { bigint, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Tombstones of erased agents (docs/adr/0027-erasure-epochs-and-lock-order.md). An erase deletes
 * the stream and bumps the agent's `epoch` here in ONE transaction; the row is never deleted, so
 * work that began before the erase (a queued import, a reflection waiting on its LLM) can tell,
 * in its own write transaction, that the stream it read from is gone and write nothing.
 */
export const agentErasures = pgTable(
  "agent_erasures",
  {
    agentId: text("agent_id").primaryKey(),
    /** Erasures of this agent so far; a stream written after the n-th erase is epoch n. */
    epoch: integer("epoch").notNull(),
    /**
     * Position of the last erase among all agents' erases (`agent_erasures_seq`): a delivery or
     * import records the highest position it saw when it arrived (its "horizon"); an erase past
     * it came later, so the source must not write to that agent.
     */
    seq: bigint("seq", { mode: "number" }).notNull(),
    erasedAt: timestamp("erased_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("agent_erasures_seq_idx").on(t.seq)],
);
