import { sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { erasureReceipts } from "../../db/schema";
import { newId } from "../../lib/ids";
import { eraseOutgoing } from "../../outgoing/erase";
import type { MemoryDeps } from "../deps";
import { FIELDS } from "../enrichment/fields";
import { recorded } from "../events";
import { lockAgentExclusive } from "./guard";
import type { ErasureReceipt } from "./receipt";

/**
 * Erases an agent's whole stream (memories, their vectors and revisions, outcomes, lessons, reflections, runs,
 * settings, documents, retrieval log) in one transaction, and leaves a tombstone: the agent's epoch goes up, so
 * work that began before (a queued import or delivery, a reflection waiting on its LLM, a
 * retention run) writes nothing after it (docs/adr/0027). The agent id stays usable: a write
 * after the erase starts the next epoch's stream.
 *
 * It also leaves a receipt (docs/adr/0034), in the same transaction: when, the epoch, rows removed
 * per table (what cascades from memories counted before the delete) and the pending work it
 * cancelled (enrichment not yet done, reflection runs still running: their jobs end writing
 * nothing). Counts only, no content; the receipt is never deleted. Outgoing events not yet sent are
 * cancelled and an `agent.erased` event recorded (src/outgoing/erase.ts).
 *
 * Lock order (no deadlock with retrieve's touch or retention): the agent's lock first, then the
 * memories in id order (`COLLATE "C"`, as the touch and retention lock them), then the delete.
 */
export async function eraseAgent(
  deps: Pick<MemoryDeps, "db" | "clock"> & Partial<Pick<MemoryDeps, "announce">>,
  agentId: string,
): Promise<{ deleted: number; erasureId: string }> {
  const out = await deps.db.transaction(async (tx) => {
    await lockAgentExclusive(tx, agentId);
    const erasedAt = deps.clock.now();
    const [tomb] = await queryRows<{ epoch: number }>(
      tx,
      sql`
      INSERT INTO agent_erasures (agent_id, epoch, seq, erased_at)
      VALUES (${agentId}, 1, nextval('agent_erasures_seq'), ${erasedAt.toISOString()}::timestamptz)
      ON CONFLICT (agent_id) DO UPDATE
        SET epoch = agent_erasures.epoch + 1, seq = excluded.seq, erased_at = excluded.erased_at
      RETURNING epoch`,
    );
    // What goes by cascade with the memories, and the pending work, counted under the lock.
    const [before] = await queryRows<Record<string, number | string>>(
      tx,
      sql`SELECT
        (SELECT count(*) FROM memory_embeddings WHERE agent_id = ${agentId}) AS memory_embeddings,
        (SELECT count(*) FROM outcomes WHERE agent_id = ${agentId}) AS outcomes,
        (SELECT count(*) FROM lesson_revisions WHERE agent_id = ${agentId}) AS lesson_revisions,
        (SELECT count(*) FROM memory_revisions WHERE agent_id = ${agentId}) AS memory_revisions,
        (SELECT count(*) FROM memories WHERE agent_id = ${agentId}
          AND (${FIELDS.importance.status} = 'pending' OR ${FIELDS.embedding.status} = 'pending')) AS enrichment,
        (SELECT count(*) FROM reflection_runs WHERE agent_id = ${agentId} AND status = 'running') AS reflection_runs`,
    );
    const byKind = await queryRows<{ kind: string; n: number | string }>(
      tx,
      sql`WITH locked AS (
            SELECT id FROM memories WHERE agent_id = ${agentId} ORDER BY id COLLATE "C" FOR UPDATE
          ),
          gone AS (
            DELETE FROM memories m USING locked WHERE m.agent_id = ${agentId} AND m.id = locked.id
            RETURNING m.kind
          )
          SELECT kind, count(*) AS n FROM gone GROUP BY kind ORDER BY kind`,
    );
    const removed = async (table: string) =>
      Number(
        (
          await queryRows<{ n: number | string }>(
            tx,
            sql`WITH gone AS (DELETE FROM ${sql.raw(table)} WHERE agent_id = ${agentId} RETURNING 1) SELECT count(*) AS n FROM gone`,
          )
        )[0]?.n ?? 0,
      );
    // The archive tier (docs/adr/0044): its memories are the agent's memories too.
    const archived = await queryRows<{ kind: string; n: number | string }>(
      tx,
      sql`WITH gone AS (DELETE FROM memory_archive WHERE agent_id = ${agentId} RETURNING kind)
          SELECT kind, count(*) AS n FROM gone GROUP BY kind ORDER BY kind`,
    );
    const memoriesByKind: Record<string, number> = Object.fromEntries(
      byKind.map((r) => [r.kind, Number(r.n)]),
    );
    for (const r of archived) memoriesByKind[r.kind] = (memoriesByKind[r.kind] ?? 0) + Number(r.n);
    const deleted = Object.values(memoriesByKind).reduce((a, b) => a + b, 0);
    const rows: Record<string, number> = {
      memories: deleted,
      memory_embeddings: Number(before?.memory_embeddings ?? 0),
      memory_archive: archived.reduce((a, r) => a + Number(r.n), 0),
      outcomes: Number(before?.outcomes ?? 0),
      lesson_revisions: Number(before?.lesson_revisions ?? 0),
      memory_revisions: Number(before?.memory_revisions ?? 0),
      reflection_runs: await removed("reflection_runs"),
      agent_settings: await removed("agent_settings"),
      documents: await removed("documents"),
      retrieval_log: await removed("retrieval_log"),
    };
    const receipt: ErasureReceipt = {
      id: newId("era"),
      agentId,
      epoch: Number(tomb?.epoch ?? 1),
      erasedAt: erasedAt.toISOString(),
      rows,
      memoriesByKind,
      cancelled: {
        enrichment: Number(before?.enrichment ?? 0),
        reflectionRuns: Number(before?.reflection_runs ?? 0),
      },
    };
    await tx.insert(erasureReceipts).values({ ...receipt, erasedAt });
    await eraseOutgoing(tx, agentId, { ...receipt, erasureId: receipt.id });
    return { deleted, erasureId: receipt.id };
  });
  await deps.announce?.(recorded([{ agentId }]));
  return out;
}
