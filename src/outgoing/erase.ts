import { sql } from "drizzle-orm";
import type { Db } from "../db/client";

/**
 * An erasure's part of the outbox, in the erasure's transaction (after its deletes, whose own
 * `memory.deleted` events are among the pending): every delivery of the agent not yet sent is
 * `cancelled` with its payload emptied, so nothing written before the erasure leaves after it;
 * sent or failed deliveries that carried content leave the log (what remains of the log names ids
 * only). Then one `agent.erased` event (counts, no content) per active subscription that names it.
 * The subscriptions themselves stay: they are the caller's configuration, not the agent's stream.
 */
export async function eraseOutgoing(
  tx: Pick<Db, "execute">,
  agentId: string,
  erasure: { erasureId: string; epoch: number; erasedAt: string; rows: Record<string, number> },
): Promise<void> {
  const cancelled = await tx.execute(sql`
    UPDATE event_deliveries SET status = 'cancelled', payload = '{}'::jsonb,
      last_error = 'cancelled by the agent''s erasure'
    WHERE agent_id = ${agentId} AND status = 'pending'`);
  await tx.execute(sql`
    DELETE FROM event_deliveries WHERE agent_id = ${agentId} AND content AND status <> 'cancelled'`);
  const payload = JSON.stringify({
    erasureId: erasure.erasureId,
    epoch: erasure.epoch,
    erasedAt: erasure.erasedAt,
    rows: erasure.rows,
    cancelledDeliveries: affected(cancelled),
  });
  await tx.execute(sql`
    SELECT memstream_event_record(ARRAY[${agentId}::text], ARRAY['agent.erased'::text],
      ARRAY[${payload}::jsonb], ARRAY[false])`);
}

/** Rows an UPDATE touched, as postgres-js (`count`) and PGlite (`affectedRows`) report it. */
function affected(result: unknown): number {
  const r = result as { count?: number; affectedRows?: number };
  return Number(r.count ?? r.affectedRows ?? 0);
}
