import {
  foreignKey,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { memories } from "./memories";

/**
 * The history of a memory's edits (docs/adr/0040-memory-history.md): each `PATCH` that changes its
 * description, importance or metadata keeps the values it replaced here, numbered 1, 2, … per
 * memory, in the PATCH's transaction. Deleted with the memory (cascade), so every deletion path —
 * by id, by filter, expiry, retention, erasure — takes its history along.
 */
export const memoryRevisions = pgTable(
  "memory_revisions",
  {
    agentId: text("agent_id").notNull(),
    memoryId: text("memory_id").notNull(),
    /** 1 for the first version replaced, then one more per changing PATCH. */
    revision: integer("revision").notNull(),
    description: text("description").notNull(),
    /** Null when it had none yet (scoring pending or failed). */
    importance: smallint("importance"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull(),
    /** When the PATCH replaced these values. */
    replacedAt: timestamp("replaced_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.memoryId, t.revision] }),
    foreignKey({
      columns: [t.agentId, t.memoryId],
      foreignColumns: [memories.agentId, memories.id],
    }).onDelete("cascade"),
  ],
);
