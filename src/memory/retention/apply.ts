import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { assertNotErased, type WrittenSince } from "../erasure/guard";
import { releaseSuperseded } from "../supersede";
import { citedAndTotal, deletable, doomed } from "./doomed-sql";
import type { RetentionPolicy } from "./policy";
import { FORGET_SAMPLE } from "./report";

/** Memories deleted per statement: short transactions and row locks, bounded rows back to Node. */
export const RETENTION_BATCH = 500;

type Row = { id: string; kind: string; at: string };

/**
 * Deletes what `policy` forgets, oldest first, in batches of `batch`, one statement each (pick,
 * delete, count in the agent's `forgotten`), so a huge backlog never holds long locks and only a
 * batch of ids ever reaches Node. Vectors go with their memory (ON DELETE CASCADE); enrichment
 * jobs still queued or running for a deleted memory find no row to write to (see ADR 0019).
 *
 * A keyset cursor walks the stream once: each memory is judged when the cursor reaches it, with
 * the citations in force then. A reflection deleted by this run releases the memories it cited
 * (which are older than it, as a rule) only for the next run, as the dry run predicts.
 *
 * Each batch is one transaction that shares the agent's lock and stops (`AgentErased`) when the
 * agent was erased since `since`, and locks its memories in id order before deleting them, the
 * order retrieve's touch and the erase use, so none of them deadlocks with another (ADR 0027).
 */
export async function applyForget(
  db: Db,
  agentId: string,
  since: WrittenSince,
  policy: RetentionPolicy,
  now: Date,
  batch = RETENTION_BATCH,
): Promise<{ count: number; byKind: Record<string, number>; sample: string[] }> {
  const out = { count: 0, byKind: {} as Record<string, number>, sample: [] as string[] };
  // Before every memory: created_at is never -infinity (Timestamp() accepts years 0001-9999).
  let cursor = { at: "-infinity", id: "" };
  for (;;) {
    const rows = await db.transaction(async (tx) => {
      await assertNotErased(tx, agentId, since);
      const deleted = await queryRows<Row>(
        tx,
        sql`WITH ${citedAndTotal(agentId)},
        cand AS (
          SELECT x.id, x.created_at, row_number() OVER (ORDER BY x.created_at, x.id) AS pos FROM (
            SELECT m.id, m.created_at FROM memories m
            WHERE ${deletable(agentId, policy)} AND (m.created_at, m.id) > (${cursor.at}::timestamptz, ${cursor.id})
            ORDER BY m.created_at, m.id LIMIT ${batch}
          ) x
        ),
        locked AS (
          SELECT m.id, cand.created_at, cand.pos FROM memories m JOIN cand ON m.id = cand.id
          WHERE m.agent_id = ${agentId} ORDER BY m.id COLLATE "C" FOR UPDATE OF m
        ),
        del AS (
          DELETE FROM memories m USING locked
          WHERE m.agent_id = ${agentId} AND m.id = locked.id AND ${doomed(policy, now, sql`locked.created_at`, sql`locked.pos`)}
          RETURNING m.id, m.kind, m.created_at
        ),
        bump AS (
          INSERT INTO agent_settings (agent_id, forgotten) SELECT ${agentId}, count(*) FROM del HAVING count(*) > 0
          ON CONFLICT (agent_id) DO UPDATE SET forgotten = agent_settings.forgotten + excluded.forgotten
        )
        SELECT id, kind, created_at::text AS at FROM del ORDER BY created_at, id`,
      );
      await releaseSuperseded(
        tx,
        agentId,
        deleted.map((d) => d.id),
      );
      return deleted;
    });
    for (const r of rows) {
      out.count++;
      out.byKind[r.kind] = (out.byKind[r.kind] ?? 0) + 1;
      if (out.sample.length < FORGET_SAMPLE) out.sample.push(r.id);
    }
    const last = rows.at(-1);
    // Fewer than a full batch: the candidates ran out, or the rest are past both rules (each
    // rule picks a prefix of the oldest-first order, so nothing after a kept candidate goes).
    if (!last || rows.length < batch) return out;
    cursor = { at: last.at, id: last.id };
  }
}
