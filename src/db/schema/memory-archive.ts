import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { vector } from "./vector";

/**
 * The archive tier (docs/adr/0044-memory-tiers.md): memories compaction moved out of `memories`
 * behind a `summary` memory that cites them. Kept whole — text, times, importance, metadata, the
 * vector retrieval used and the edit history — so expansion can return them and promotion can put
 * them back as they were; not in `memories`, so no ranking statement, index or lexical statistic
 * of the ranked stream pays for them.
 */
export const memoryArchive = pgTable(
  "memory_archive",
  {
    agentId: text("agent_id").notNull(),
    id: text("id").notNull(),
    kind: text("kind").notNull(),
    description: text("description").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    lastAccessedAt: timestamp("last_accessed_at", { withTimezone: true, mode: "date" }).notNull(),
    insertedAt: timestamp("inserted_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    revision: integer("revision").notNull(),
    importance: smallint("importance"),
    importanceSource: text("importance_source"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull(),
    citations: text("citations").array().notNull().default(sql`'{}'::text[]`),
    supersededBy: text("superseded_by"),
    validUntil: timestamp("valid_until", { withTimezone: true, mode: "date" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    promptVersion: text("prompt_version"),
    /** The vector retrieval used when it was archived, and its model. */
    embeddingModel: text("embedding_model").notNull(),
    embedding: vector("embedding").notNull(),
    /** Its `memory_revisions` rows, as they were (restored on promotion). */
    revisions: jsonb("revisions").$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    /** The summary memory that stands for it in the ranked stream. */
    summaryId: text("summary_id").notNull(),
    archivedAt: timestamp("archived_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Times a retrieve returned it through expansion; promoted back to `memories` at the agent's threshold. */
    expansions: integer("expansions").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    index("memory_archive_agent_summary_idx").on(t.agentId, t.summaryId),
    // Expiry, as for memories: a read's probe per agent, and the sweep's across agents.
    index("memory_archive_agent_expires_idx")
      .on(t.agentId, t.expiresAt)
      .where(sql`${t.expiresAt} IS NOT NULL`),
    index("memory_archive_expires_idx").on(t.expiresAt).where(sql`${t.expiresAt} IS NOT NULL`),
  ],
);

export type ArchivedRow = typeof memoryArchive.$inferSelect;
