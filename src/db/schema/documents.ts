import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per imported document (agent, source): what its current version is. Its sections are
 * `document` memories of the same agent whose `metadata.source` is the source; an import replaces
 * them under this row's lock, so two imports of one source never interleave (src/memory/documents/).
 */
export const documents = pgTable(
  "documents",
  {
    agentId: text("agent_id").notNull(),
    /** Caller-chosen identity of the document: a path or URL. */
    source: text("source").notNull(),
    title: text("title"),
    /** `markdown`, `html` or `text`: how the content was read. */
    format: text("format").notNull(),
    /** sha256 of the sections as stored (text and metadata): an identical re-import changes nothing. */
    contentHash: text("content_hash").notNull(),
    sections: integer("sections").notNull(),
    tokens: integer("tokens").notNull(),
    importedAt: timestamp("imported_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.source] })],
);

export type DocumentRow = typeof documents.$inferSelect;
