import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, smallint, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per memory. Vectors live in `memory_embeddings`, not here: the touch that every
 * retrieve does (last_accessed_at) then updates a narrow row with only btree indexes, which
 * stays cheap even when an HNSW index exists (see docs/adr/0002-embeddings-table.md).
 */
export const memories = pgTable(
  "memories",
  {
    id: text("id").primaryKey(),
    agentId: text("agent_id").notNull(),
    kind: text("kind").notNull(),
    description: text("description").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    lastAccessedAt: timestamp("last_accessed_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Wall-clock insertion time (createdAt may be in the past for imported history). */
    insertedAt: timestamp("inserted_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Bumped whenever the description changes; enrichment results for an older revision are discarded. */
    revision: integer("revision").notNull().default(1),
    importance: smallint("importance"),
    importanceStatus: text("importance_status").notNull().default("pending"),
    importanceError: text("importance_error"),
    /** Who scored it: `caller`, or the scorer id (e.g. `llm:gpt-4o-mini`, `offline:examples-v1`). */
    importanceSource: text("importance_source"),
    embeddingStatus: text("embedding_status").notNull().default("pending"),
    embeddingError: text("embedding_error"),
    /** Model of the newest vector in memory_embeddings (denormalized for display; retrieval joins the table). */
    embeddingModel: text("embedding_model"),
    /** Enrichment attempts so far (both fields), for the sweep's give-up rule. */
    attempts: integer("attempts").notNull().default(0),
    /**
     * Claims: the job that is computing a field, and until when. A job only calls a provider for
     * rows it claimed, so two jobs holding the same memory never pay for it twice; a crashed
     * worker's claim lapses at `*_claimed_until`, and the same job id (a BullMQ retry) may reclaim.
     */
    importanceClaimedBy: text("importance_claimed_by"),
    importanceClaimedUntil: timestamp("importance_claimed_until", { withTimezone: true, mode: "date" }),
    embeddingClaimedBy: text("embedding_claimed_by"),
    embeddingClaimedUntil: timestamp("embedding_claimed_until", { withTimezone: true, mode: "date" }),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    citations: text("citations").array().notNull().default(sql`'{}'::text[]`),
    /** Prompt version for reflections (null for other kinds). */
    promptVersion: text("prompt_version"),
  },
  (t) => [
    index("memories_agent_created_idx").on(t.agentId, t.createdAt.desc(), t.id.desc()),
    // Importance endpoints, and for the fast path each importance level's most recent memories
    // (an index-only walk per level; id is carried so the heap is not read).
    index("memories_agent_importance_accessed_idx").on(t.agentId, t.importance, t.lastAccessedAt, t.id),
    // The reflection trigger sums importance inserted since the last run (should-reflect.ts).
    index("memories_agent_inserted_idx").on(t.agentId, t.insertedAt),
    // Index endpoints give the fast path exact recency bounds and its most recent candidates.
    // It makes the touch a non-HOT update, which stays cheap because memories has no vectors.
    index("memories_agent_accessed_idx").on(t.agentId, t.lastAccessedAt.desc()),
    index("memories_metadata_idx").using("gin", sql`${t.metadata} jsonb_path_ops`),
    index("memories_pending_idx")
      .on(t.updatedAt)
      .where(sql`${t.importanceStatus} = 'pending' OR ${t.embeddingStatus} = 'pending'`),
    check("memories_kind_check", sql`${t.kind} IN ('observation', 'reflection', 'plan')`),
    check("memories_importance_check", sql`${t.importance} IS NULL OR ${t.importance} BETWEEN 1 AND 10`),
    check("memories_importance_status_check", sql`${t.importanceStatus} IN ('pending', 'ready', 'failed')`),
    check("memories_embedding_status_check", sql`${t.embeddingStatus} IN ('pending', 'ready', 'failed')`),
  ],
);

export type MemoryRow = typeof memories.$inferSelect;
export type NewMemoryRow = typeof memories.$inferInsert;
