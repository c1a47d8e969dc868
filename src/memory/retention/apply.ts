import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { type DerivedCounts, deleteDerived } from "../derived/delete-derived";
import { assertNotErased, type WrittenSince } from "../erasure/guard";
import { citedAndTotal, deletable, doomed } from "./doomed-sql";
import type { RetentionPolicy } from "./policy";
import { FORGET_SAMPLE } from "./report";

/** Memories deleted per statement: short transactions and row locks, bounded rows back to Node. */
export const RETENTION_BATCH = 500;

type Row = { id: string; kind: string; at: string };

/**
 * Deletes what `policy` forgets, oldest first, in batches of `batch`, one transaction each (pick,
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
    const { picked, deleted, derived } = await db.transaction(async (tx) => {
      await assertNotErased(tx, agentId, since);
      // Four statements, each naming the agent and touching only its rows (one shard on Citus,
      // docs/adr/0011): pick the batch (a window over the candidates, which FOR UPDATE cannot
      // share a query level with), lock the picked rows in id order, delete them, then count
      // them in `forgotten`. The lock and the delete are two statements, not a `locked` CTE and
      // DELETE … USING: Citus ships such a CTE's rows to the workers as an intermediate result,
      // which failed there (22P04). A memory deleted or cited between the pick and the lock is as
      // if the pick had come after: the delete returns only rows it found, and the pick read its
      // citations at one instant.
      const picked = await queryRows<Row>(
        tx,
        sql`WITH ${citedAndTotal(agentId)},
        cand AS (
          SELECT x.id, x.kind, x.created_at, row_number() OVER (ORDER BY x.created_at, x.id) AS pos FROM (
            SELECT m.id, m.kind, m.created_at FROM memories m
            WHERE ${deletable(agentId, policy)} AND (m.created_at, m.id) > (${cursor.at}::timestamptz, ${cursor.id})
            ORDER BY m.created_at, m.id LIMIT ${batch}
          ) x
        )
        SELECT id, kind, created_at::text AS at FROM cand
        WHERE ${doomed(policy, now, sql`cand.created_at`, sql`cand.pos`)}
        ORDER BY cand.created_at, cand.id`,
      );
      if (picked.length === 0) return { picked, deleted: [] as Row[], derived: {} };
      const ids = sql.join(
        picked.map((r) => sql`${r.id}`),
        sql`, `,
      );
      await tx.execute(
        sql`SELECT id FROM memories WHERE agent_id = ${agentId} AND id IN (${ids}) ORDER BY id COLLATE "C" FOR UPDATE`,
      );
      const gone = await queryRows<{ id: string }>(
        tx,
        sql`DELETE FROM memories WHERE agent_id = ${agentId} AND id IN (${ids}) RETURNING id`,
      );
      const goneIds = new Set(gone.map((r) => r.id));
      // In the pick's order (created_at, id in the database's collation): the cursor's order.
      const deleted = picked.filter((r) => goneIds.has(r.id));
      if (deleted.length > 0) {
        await tx.execute(sql`
          INSERT INTO agent_settings (agent_id, forgotten) VALUES (${agentId}, ${deleted.length})
          ON CONFLICT (agent_id) DO UPDATE SET forgotten = agent_settings.forgotten + excluded.forgotten`);
      }
      // The memories a deleted one had replaced are current again (docs/adr/0029), and what cites
      // it goes too (docs/adr/0034). Retention keeps cited memories, so that is only what a
      // reflection or lesson written since the pick cites: it committed before the lock above.
      const derived = await deleteDerived(
        tx,
        agentId,
        deleted.map((d) => d.id),
      );
      return { picked, deleted, derived };
    });
    for (const [kind, n] of Object.entries(derived as DerivedCounts)) {
      out.count += n;
      out.byKind[kind] = (out.byKind[kind] ?? 0) + n;
    }
    for (const r of deleted) {
      out.count++;
      out.byKind[r.kind] = (out.byKind[r.kind] ?? 0) + 1;
      if (out.sample.length < FORGET_SAMPLE) out.sample.push(r.id);
    }
    const last = picked.at(-1);
    // Fewer than a full batch: the candidates ran out, or the rest are past both rules (each
    // rule picks a prefix of the oldest-first order, so nothing after a kept candidate goes).
    if (!last || picked.length < batch) return out;
    cursor = { at: last.at, id: last.id };
  }
}
