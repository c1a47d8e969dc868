import { sql } from "drizzle-orm";
import type { Core } from "../../core";
import { queryRows } from "../../db/client";
import { afterKey, type Keyset, nextKeyset, type Page } from "../../db/keyset";
import { memories } from "../../db/schema";
import { FIELDS, type MemoryRef } from "./fields";

/** A memory pending too long, and which of its fields no live job has claimed. */
export type StalePending = MemoryRef & { importance: boolean; embedding: boolean };

const unclaimedPending = (f: (typeof FIELDS)[keyof typeof FIELDS], now: string) =>
  sql`${f.status} = 'pending' AND (${f.claimedUntil} IS NULL OR ${f.claimedUntil} < ${now}::timestamptz)`;

/**
 * Memories pending for longer than `afterMs` (by `updated_at`, then id), oldest first after
 * `after`, at most `limit`, via the partial pending index: work whose job was lost (flushed Redis,
 * a killed worker, a restarted in-process queue). The sweep enqueues jobs for the unclaimed fields
 * and resumes after the page's last row next time, so rows behind a backlog of older ones that
 * are still queued are reached too. "Now" is the clock's, the time `updated_at` and claims were
 * written with.
 */
export async function stalePending(
  deps: Pick<Core, "db" | "clock">,
  opts: { afterMs: number; limit: number; after?: Keyset },
): Promise<Page<StalePending>> {
  const imp = FIELDS.importance;
  const emb = FIELDS.embedding;
  const now = deps.clock.now();
  const before = new Date(now.getTime() - opts.afterMs).toISOString();
  const rows = await queryRows<StalePending & { at: string }>(
    deps.db,
    sql`SELECT ${memories.id} AS "memoryId", ${memories.agentId} AS "agentId", ${memories.revision} AS revision,
          ${unclaimedPending(imp, now.toISOString())} AS importance,
          ${unclaimedPending(emb, now.toISOString())} AS embedding, ${memories.updatedAt}::text AS at
        FROM ${memories}
        WHERE (${imp.status} = 'pending' OR ${emb.status} = 'pending')
          AND ${memories.updatedAt} < ${before}::timestamptz
          ${afterKey(sql`${memories.updatedAt}`, sql`${memories.id}`, opts.after, sql`timestamptz`)}
        ORDER BY ${memories.updatedAt}, ${memories.id} LIMIT ${opts.limit}`,
  );
  return {
    rows: rows.map(({ at: _, ...r }) => r),
    next: nextKeyset(rows, opts.limit, (r) => ({ at: r.at, id: r.memoryId })),
  };
}
