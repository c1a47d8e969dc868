import { type SQL, sql } from "drizzle-orm";
import type { Memory } from "./types";

/**
 * Recall as of a time T (`asOf` on retrieve, list and context; docs/adr/0033). What the stream
 * was at T is read from what it is now:
 * - only memories created at or before T exist (a `createdAt <= T` condition, like `until`);
 * - a memory is superseded at T only by a replacement that existed at T (its `validUntil`, the
 *   replacement's createdAt, at or before T); a later replacement is not yet there;
 * - its last access at T is its lastAccessedAt when that is at or before T, else its createdAt:
 *   accesses are not kept as history, so an access after T hides when the one before it was, and
 *   creation is the latest access known to precede T.
 * Deleted memories are gone and stay gone: an erasure is not undone by asking about the past.
 */

/** The last access known to precede `asOf`, on a memories row `alias` (SQL for recency). */
export const accessAsOfSql = (asOf: Date, alias = "memories"): SQL => {
  const at = sql.raw(`${alias}.last_accessed_at`);
  return sql`CASE WHEN ${at} <= ${asOf.toISOString()}::timestamptz THEN ${at} ELSE ${sql.raw(`${alias}.created_at`)} END`;
};

/** A memory as it stood at `asOf` (created at or before it): a later replacement and later accesses left out. */
export function memoryAsOf<M extends Memory>(m: M, asOf: Date): M {
  const t = asOf.getTime();
  const replacedLater = m.validUntil !== null && Date.parse(m.validUntil) > t;
  const accessedLater = Date.parse(m.lastAccessedAt) > t;
  if (!replacedLater && !accessedLater) return m;
  return {
    ...m,
    ...(replacedLater ? { supersededBy: null, validUntil: null } : {}),
    ...(accessedLater ? { lastAccessedAt: m.createdAt } : {}),
  };
}

/** The earlier of an `until` filter and `asOf` (ISO), as the candidate set's upper bound on createdAt. */
export function untilAsOf(until: string | undefined, asOf: Date | undefined): string | undefined {
  if (!asOf) return until;
  if (until === undefined || Date.parse(until) > asOf.getTime()) return asOf.toISOString();
  return until;
}
