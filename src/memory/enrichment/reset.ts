import { type SQL, sql } from "drizzle-orm";
import { memories } from "../../db/schema";
import { FIELDS, target } from "./fields";

type MemorySet = Partial<typeof memories.$inferInsert>;

/**
 * What a changed description does to enrichment: both fields back to `pending` with no value,
 * error or claim (claims held by jobs for the old text must not hold back the jobs for the new
 * one), and the attempt count restarts; a supersession check still due is dropped (the new text is
 * checked once it has a vector). The caller bumps the revision and deletes the old vectors.
 */
export const resetOnEdit = (): MemorySet => ({
  importance: null,
  importanceStatus: "pending",
  importanceError: null,
  importanceSource: null,
  importanceClaimedBy: null,
  importanceClaimedUntil: null,
  embeddingStatus: "pending",
  embeddingError: null,
  embeddingModel: null,
  embeddingClaimedBy: null,
  embeddingClaimedUntil: null,
  attempts: 0,
  supersessionDueAt: null,
});

/** A caller-supplied importance: stored as given, ready, never re-scored. */
export const importanceGiven = (importance: number): MemorySet => ({
  importance,
  importanceStatus: "ready",
  importanceError: null,
  importanceSource: "caller",
});

/** `importanceGiven` as a raw `SET` list, for bulk updates written in SQL. */
export const importanceGivenSql = (importance: number): SQL =>
  sql`${target(memories.importance)} = ${importance}, ${target(FIELDS.importance.status)} = 'ready',
    ${target(memories.importanceSource)} = 'caller', ${target(FIELDS.importance.error)} = NULL`;

/** A caller-supplied vector of `model` (stored by the caller): the embedding is ready. */
export const embeddingGiven = (model: string): MemorySet => ({
  embeddingStatus: "ready",
  embeddingError: null,
  embeddingModel: model,
});
