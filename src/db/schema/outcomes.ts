import { sql } from "drizzle-orm";
import {
  boolean,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { memories } from "./memories";

/**
 * The structured fields of an `outcome` memory (one row per outcome memory; the memory row holds
 * its natural-language description, time, metadata and enrichment). Deleted with its memory.
 */
export const outcomes = pgTable(
  "outcomes",
  {
    agentId: text("agent_id").notNull(),
    memoryId: text("memory_id").notNull(),
    task: text("task").notNull(),
    /** Null: no task type given; such outcomes are consolidated among themselves. */
    taskType: text("task_type"),
    success: boolean("success").notNull(),
    strategy: text("strategy"),
    error: text("error"),
    durationMs: integer("duration_ms"),
    /**
     * When a consolidation last took this outcome into account; null = not yet, so the sweep
     * enqueues `outcomes.consolidate` for it (the database, not the queue, holds pending work).
     */
    consolidatedAt: timestamp("consolidated_at", { withTimezone: true, mode: "date" }),
    insertedAt: timestamp("inserted_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.memoryId] }),
    foreignKey({
      columns: [t.agentId, t.memoryId],
      foreignColumns: [memories.agentId, memories.id],
    }).onDelete("cascade"),
    // Consolidation reads one task type's newest outcomes.
    index("outcomes_agent_task_type_idx").on(t.agentId, t.taskType, t.insertedAt.desc()),
    // The sweep finds outcomes no consolidation has seen.
    index("outcomes_unconsolidated_idx").on(t.insertedAt).where(sql`${t.consolidatedAt} IS NULL`),
  ],
);

export type OutcomeRow = typeof outcomes.$inferSelect;
