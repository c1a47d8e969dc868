import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { retryOnDeadlock } from "../../db/retry-deadlock";
import type { DerivedCounts } from "../derived/delete-derived";
import { agentEpoch, assertNotErased } from "../erasure/guard";
import { addDeleted, deleteIds } from "./delete-ids";

/** Expired memories deleted per transaction. */
export const PURGE_BATCH = 500;

/**
 * Deletes the agent's memories whose `expiresAt` has passed at `now`, through the deletion path
 * (delete-ids.ts), a batch per transaction. Every read of the stream (retrieve, context, list, get,
 * stats) calls it first, so an expired memory is never ranked, listed or shown; the `agent.retain`
 * job calls it for agents nobody reads (docs/adr/0038). The common case — nothing expired — costs
 * one probe of a partial index that holds only memories with an expiry.
 */
export async function purgeExpired(
  deps: { db: Db },
  agentId: string,
  now: Date,
  batch = PURGE_BATCH,
): Promise<{ count: number; byKind: Record<string, number>; derived: DerivedCounts }> {
  const out = { count: 0, byKind: {} as Record<string, number>, derived: {} as DerivedCounts };
  const at = now.toISOString();
  // Both tiers that hold memories (docs/adr/0044): an archived memory expires as a ranked one does.
  const probe = await queryRows<{ id: string }>(
    deps.db,
    sql`(SELECT id FROM memories WHERE agent_id = ${agentId} AND expires_at <= ${at}::timestamptz LIMIT 1)
      UNION ALL
      (SELECT id FROM memory_archive WHERE agent_id = ${agentId} AND expires_at <= ${at}::timestamptz LIMIT 1)`,
  );
  if (probe.length === 0) return out;
  const since = { epoch: await agentEpoch(deps.db, agentId) };
  for (;;) {
    const done = await retryOnDeadlock(() =>
      deps.db.transaction(async (tx) => {
        await assertNotErased(tx, agentId, since);
        const ids = await queryRows<{ id: string }>(
          tx,
          sql`SELECT id FROM (
            (SELECT id, expires_at FROM memories WHERE agent_id = ${agentId} AND expires_at <= ${at}::timestamptz
              ORDER BY expires_at LIMIT ${batch})
            UNION ALL
            (SELECT id, expires_at FROM memory_archive WHERE agent_id = ${agentId} AND expires_at <= ${at}::timestamptz
              ORDER BY expires_at LIMIT ${batch})) x
          ORDER BY expires_at LIMIT ${batch}`,
        );
        return {
          picked: ids.length,
          deleted: await deleteIds(
            tx,
            agentId,
            ids.map((r) => r.id),
          ),
        };
      }),
    );
    addDeleted(out, done.deleted);
    if (done.picked < batch) return out;
  }
}

/** Agents holding memories expired at `now`, for the sweep (`agent.retain` removes them); one index range. */
export async function agentsWithExpired(
  db: Pick<Db, "execute">,
  now: Date,
  limit: number,
): Promise<string[]> {
  const rows = await queryRows<{ agent_id: string }>(
    db,
    sql`SELECT DISTINCT agent_id FROM (
      (SELECT agent_id FROM memories WHERE expires_at <= ${now.toISOString()}::timestamptz
        ORDER BY expires_at LIMIT ${limit * 20})
      UNION ALL
      (SELECT agent_id FROM memory_archive WHERE expires_at <= ${now.toISOString()}::timestamptz
        ORDER BY expires_at LIMIT ${limit * 20})) x LIMIT ${limit}`,
  );
  return rows.map((r) => r.agent_id);
}
