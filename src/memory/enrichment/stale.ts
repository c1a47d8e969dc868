import { sql } from "drizzle-orm";
import type { Core } from "../../core";
import { queryRows } from "../../db/client";
import { memories } from "../../db/schema";
import { FIELDS, type MemoryRef } from "./fields";

/** A memory pending too long, and which of its fields no live job has claimed. */
export type StalePending = MemoryRef & { importance: boolean; embedding: boolean };

const unclaimedPending = (f: (typeof FIELDS)[keyof typeof FIELDS], now: string) =>
  sql`${f.status} = 'pending' AND (${f.claimedUntil} IS NULL OR ${f.claimedUntil} < ${now}::timestamptz)`;

/**
 * Memories pending for longer than `afterMs` (by `updated_at`), oldest first, at most `limit`, via
 * the partial pending index: work whose job was lost (flushed Redis, a killed worker, a restarted
 * in-process queue). The sweep enqueues jobs for the unclaimed fields. "Now" is the clock's, the
 * time `updated_at` and claims were written with.
 */
export async function stalePending(
  deps: Pick<Core, "db" | "clock">,
  opts: { afterMs: number; limit: number },
): Promise<StalePending[]> {
  const imp = FIELDS.importance;
  const emb = FIELDS.embedding;
  const now = deps.clock.now();
  const before = new Date(now.getTime() - opts.afterMs).toISOString();
  return queryRows<StalePending>(
    deps.db,
    sql`SELECT ${memories.id} AS "memoryId", ${memories.agentId} AS "agentId", ${memories.revision} AS revision,
          ${unclaimedPending(imp, now.toISOString())} AS importance,
          ${unclaimedPending(emb, now.toISOString())} AS embedding
        FROM ${memories}
        WHERE (${imp.status} = 'pending' OR ${emb.status} = 'pending')
          AND ${memories.updatedAt} < ${before}::timestamptz
        ORDER BY ${memories.updatedAt} LIMIT ${opts.limit}`,
  );
}
