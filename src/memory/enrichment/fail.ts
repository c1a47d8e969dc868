import { sql } from "drizzle-orm";
import type { Core } from "../../core";
import { type Db, queryRows } from "../../db/client";
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

/**
 * Marks rows `failed` with the reason, when a job has used up its attempts. Guarded by revision
 * and claim: a newer text, or another job now holding the row, is left alone.
 */
export async function markFailed(
  deps: Pick<Core, "db" | "clock">,
  field: EnrichedField,
  items: readonly MemoryRef[],
  owner: string,
  error: string,
): Promise<number> {
  if (items.length === 0) return 0;
  const f = FIELDS[field];
  const now = deps.clock.now().toISOString();
  const rows = await deps.db.transaction(async (tx) => {
    await lockInRowOrder(tx, items);
    return queryRows<{ id: string }>(
      tx,
      sql`UPDATE ${memories} SET ${target(f.status)} = 'failed', ${target(f.error)} = ${error},
          ${target(memories.attempts)} = ${memories.attempts} + 1,
          ${target(f.claimedBy)} = NULL, ${target(f.claimedUntil)} = NULL
        FROM ${refValues(items)}
        WHERE ${atRevision} AND ${f.status} = 'pending'
          AND (${f.claimedBy} IS NULL OR ${f.claimedBy} = ${owner} OR ${f.claimedUntil} < ${now}::timestamptz)
        RETURNING ${memories.id} AS id`,
    );
  });
  return rows.length;
}

/**
 * Records an unusable importance reply: counts the attempt and keeps the reason; at
 * `maxInvalid` attempts the row is `failed`. Returns the ids still pending (to retry).
 */
export async function recordInvalid(
  db: Db,
  items: readonly (MemoryRef & { error: string })[],
  maxInvalid: number,
): Promise<string[]> {
  if (items.length === 0) return [];
  const f = FIELDS.importance;
  const values = sql.join(
    items.map((i) => sql`(${i.agentId}::text, ${i.memoryId}::text, ${i.revision}::int, ${i.error}::text)`),
    sql`, `,
  );
  const rows = await db.transaction(async (tx) => {
    await lockInRowOrder(tx, items);
    return queryRows<{ id: string; status: string }>(
      tx,
      sql`UPDATE ${memories} SET ${target(memories.attempts)} = ${memories.attempts} + 1, ${target(f.error)} = x.err,
          ${target(f.status)} = CASE WHEN ${memories.attempts} + 1 >= ${maxInvalid}::int THEN 'failed' ELSE 'pending' END
        FROM (VALUES ${values}) AS x(agent_id, id, rev, err)
        WHERE ${atRevision} AND ${f.status} = 'pending'
        RETURNING ${memories.id} AS id, ${f.status} AS status`,
    );
  });
  return rows.filter((r) => r.status === "pending").map((r) => r.id);
}
