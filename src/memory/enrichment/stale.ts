import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { memories } from "../../db/schema";
import { FIELDS, type MemoryRef } from "./fields";

/** A memory pending too long, and which of its fields no live job has claimed. */
export type StalePending = MemoryRef & { importance: boolean; embedding: boolean };

const unclaimedPending = (f: (typeof FIELDS)[keyof typeof FIELDS]) =>
  sql`${f.status} = 'pending' AND (${f.claimedUntil} IS NULL OR ${f.claimedUntil} < now())`;

/**
 * Memories pending for longer than `afterMs` (by `updated_at`), oldest first, at most `limit`, via
 * the partial pending index: work whose job was lost (flushed Redis, a killed worker, a restarted
 * in-process queue). The sweep enqueues jobs for the unclaimed fields.
 */
export async function stalePending(
  db: Db,
  opts: { afterMs: number; limit: number },
): Promise<StalePending[]> {
  const imp = FIELDS.importance;
  const emb = FIELDS.embedding;
  return queryRows<StalePending>(
    db,
    sql`SELECT ${memories.id} AS "memoryId", ${memories.agentId} AS "agentId", ${memories.revision} AS revision,
          ${unclaimedPending(imp)} AS importance, ${unclaimedPending(emb)} AS embedding
        FROM ${memories}
        WHERE (${imp.status} = 'pending' OR ${emb.status} = 'pending')
          AND ${memories.updatedAt} < now() - make_interval(secs => ${opts.afterMs / 1000}::float8)
        ORDER BY ${memories.updatedAt} LIMIT ${opts.limit}`,
  );
}
