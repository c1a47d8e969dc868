import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client";
import { afterKey, type Keyset, nextKeyset, type Page } from "../db/keyset";
import type { DeliveryWork } from "../memory/events";

/** Deliveries one announcement enqueues at most (the sweep finds the rest). */
const ANNOUNCE_LIMIT = 100;

/** How long an agent found without active subscriptions is not looked up again in this process. */
export const UNSUBSCRIBED_TTL_MS = 1_000;

/**
 * What a write's `events.recorded` announcement looks up after its commit: the agent's deliveries
 * not tried yet (one being retried is the queue's, on its backoff). An agent found without an active subscription is remembered as such for
 * UNSUBSCRIBED_TTL_MS, so a stream without subscriptions pays at most one lookup a second (and the
 * outbox triggers' index probe inside its statements). A subscription created meanwhile in another
 * process loses nothing: its events are in the outbox, and the sweep sends what was not announced.
 */
export function pendingDeliveriesProbe(
  db: Pick<Db, "execute">,
  now: () => number = Date.now,
): (agentId: string) => Promise<DeliveryWork[]> {
  const unsubscribed = new Map<string, number>();
  return async (agentId) => {
    const until = unsubscribed.get(agentId);
    if (until !== undefined && until > now()) return [];
    const [row] = await queryRows<{ subscribed: boolean; ids: string[] | null }>(
      db,
      sql`SELECT
        EXISTS (SELECT 1 FROM event_subscriptions WHERE agent_id = ${agentId} AND status = 'active') AS subscribed,
        (SELECT array_agg(id) FROM (
          SELECT id FROM event_deliveries WHERE agent_id = ${agentId} AND status = 'pending' AND attempts = 0
          ORDER BY next_attempt_at LIMIT ${ANNOUNCE_LIMIT}) d) AS ids`,
    );
    if (!row?.subscribed) {
      // Bounded: a process writing for very many agents forgets them all at once, then relearns.
      if (unsubscribed.size >= 100_000) unsubscribed.clear();
      unsubscribed.set(agentId, now() + UNSUBSCRIBED_TTL_MS);
    } else unsubscribed.delete(agentId);
    return (row?.ids ?? []).map((deliveryId) => ({ agentId, deliveryId }));
  };
}

/**
 * Deliveries the queue should have sent by now and did not (an announcement lost with Redis, a
 * restarted in-process queue, a lookup skipped): pending with their next attempt more than
 * `olderThanMs` past `now` (the Clock's), oldest first after `after`.
 */
export async function overdueDeliveries(
  db: Pick<Db, "execute">,
  opts: { now: Date; olderThanMs: number; limit: number; after?: Keyset },
): Promise<Page<DeliveryWork>> {
  const cutoff = new Date(opts.now.getTime() - opts.olderThanMs).toISOString();
  const rows = await queryRows<{ agentId: string; id: string; at: string }>(
    db,
    sql`SELECT agent_id AS "agentId", id, next_attempt_at::text AS at FROM event_deliveries
      WHERE status = 'pending' AND next_attempt_at < ${cutoff}::timestamptz
      ${afterKey(sql`next_attempt_at`, sql`id`, opts.after, sql`timestamptz`)}
      ORDER BY next_attempt_at, id LIMIT ${opts.limit}`,
  );
  return {
    rows: rows.map((r) => ({ agentId: r.agentId, deliveryId: r.id })),
    next: nextKeyset(rows, opts.limit, (r) => ({ at: r.at, id: r.id })),
  };
}
