import { sql } from "drizzle-orm";
import type { Core } from "../../core";
import { queryRows } from "../../db/client";
import { memories } from "../../db/schema";
import {
  atRevision,
  type EnrichedField,
  FIELDS,
  lockInRowOrder,
  type MemoryRef,
  refValues,
  target,
} from "./fields";

/** A memory row a job has claimed, with what the provider needs. */
export type ClaimedRow = {
  id: string;
  agentId: string;
  revision: number;
  description: string;
  attempts: number;
};

/**
 * Claims the rows of a chunk still pending at the announced revision and not claimed by
 * another live job. Only claimed rows are sent to a provider, so overlapping jobs (a sweep
 * re-announcing queued work) never pay twice. `owner` is the job id: a retry of the same job,
 * or the same job taken over after its worker died, reclaims its rows at once. Claims are timed
 * by the clock (`claimed_until` = now + `claimMs`), as is every check of them (stale, fail).
 */
export async function claimRows(
  deps: Pick<Core, "db" | "clock">,
  field: EnrichedField,
  items: readonly MemoryRef[],
  owner: string,
  claimMs: number,
): Promise<ClaimedRow[]> {
  const f = FIELDS[field];
  const now = deps.clock.now();
  const until = new Date(now.getTime() + claimMs);
  if (items.length === 0) return [];
  // The rows locked in the one row order first, then claimed (lockInRowOrder: no deadlock).
  const rows = await deps.db.transaction(async (tx) => {
    await lockInRowOrder(tx, items);
    return queryRows<ClaimedRow>(
      tx,
      sql`UPDATE ${memories} SET ${target(f.claimedBy)} = ${owner},
          ${target(f.claimedUntil)} = ${until.toISOString()}::timestamptz
        FROM ${refValues(items)}
        WHERE ${atRevision} AND ${f.status} = 'pending'
          AND (${f.claimedUntil} IS NULL OR ${f.claimedUntil} < ${now.toISOString()}::timestamptz
            OR ${f.claimedBy} = ${owner})
        RETURNING ${memories.id} AS id, ${memories.agentId} AS "agentId", ${memories.revision} AS revision,
          ${memories.description} AS description, ${memories.attempts} AS attempts`,
    );
  });
  // Stable order: providers see the chunk in announcement order (and results map back by index).
  const order = new Map(items.map((i, n) => [i.memoryId, n]));
  return rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}
