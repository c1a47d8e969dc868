import { and, eq, sql } from "drizzle-orm";
import { eventDeliveries, eventSubscriptions } from "../db/schema";
import { postJson } from "./post";
import { signature } from "./sign";
import { deliveryBody, OUTGOING_LIMITS, type OutgoingDeps } from "./types";

/** What one attempt came to. `retry`: the caller throws so the queue tries again after its backoff. */
export type AttemptOutcome =
  | { result: "delivered"; status: number }
  | { result: "retry"; error: string }
  | { result: "failed"; error: string }
  | { result: "skipped"; reason: string };

/** The headers of a delivery: type, delivery id, event id and GitHub-style signature of the body. */
export const deliveryHeaders = (
  r: { id: string; eventId: string; event: string },
  secret: string,
  body: string,
): Record<string, string> => ({
  "content-type": "application/json",
  "user-agent": "memstream-events/1",
  "x-memstream-event": r.event,
  "x-memstream-delivery": r.id,
  "x-memstream-event-id": r.eventId,
  "x-memstream-signature-256": signature(secret, body),
});

/**
 * One attempt of a delivery: the row is read (a delivery no longer pending — sent, cancelled by an
 * erasure, its subscription deleted or disabled — is skipped), its body POSTed once, signed, and
 * the outcome recorded on the row whatever it is. A 2xx delivers it and resets the subscription's
 * failure count. Anything else counts an attempt: below the limit the row stays pending with its
 * next attempt (the queue's backoff: `backoffMs`·2^(attempts-1)); at the limit it is `failed`, and
 * the subscription's failures in a row go up, disabling it at `disableAfter`. An erasure that
 * commits while a POST is in flight does not stop that POST (it began before); none starts after.
 */
export async function attemptDelivery(
  deps: OutgoingDeps,
  agentId: string,
  deliveryId: string,
): Promise<AttemptOutcome> {
  const d = eventDeliveries;
  const s = eventSubscriptions;
  const [row] = await deps.db
    .select({ delivery: d, url: s.url, secret: s.secret, subscriptionStatus: s.status })
    .from(d)
    .innerJoin(s, and(eq(s.agentId, d.agentId), eq(s.id, d.subscriptionId)))
    .where(and(eq(d.agentId, agentId), eq(d.id, deliveryId)));
  if (!row) return { result: "skipped", reason: "no such delivery" };
  if (row.delivery.status !== "pending") return { result: "skipped", reason: row.delivery.status };
  if (row.subscriptionStatus !== "active") {
    await finish(deps, agentId, deliveryId, {
      status: "failed",
      error: "not sent: the subscription is disabled",
      code: null,
      attempted: false,
    });
    return { result: "skipped", reason: "subscription disabled" };
  }
  const body = deliveryBody(row.delivery);
  const answer = await postJson(row.url, body, deliveryHeaders(row.delivery, row.secret, body), {
    timeoutMs: deps.outgoing.timeoutMs,
    allowPrivate: deps.outgoing.allowPrivate,
  });
  if (answer.status !== null && answer.status >= 200 && answer.status < 300) {
    await finish(deps, agentId, deliveryId, {
      status: "delivered",
      error: null,
      code: answer.status,
      attempted: true,
    });
    await deps.db
      .update(s)
      .set({ consecutiveFailures: 0 })
      .where(
        and(eq(s.agentId, agentId), eq(s.id, row.delivery.subscriptionId), sql`${s.consecutiveFailures} > 0`),
      );
    deps.metrics.eventDeliveries.inc({ result: "delivered" });
    await pruneLog(deps, agentId, row.delivery.subscriptionId);
    return { result: "delivered", status: answer.status };
  }
  const error = (answer.status === null ? answer.error : `HTTP ${answer.status}: ${answer.body}`).slice(
    0,
    OUTGOING_LIMITS.errorChars,
  );
  const code = answer.status;
  const attempts = row.delivery.attempts + 1;
  if (attempts < deps.outgoing.attempts) {
    await deps.db
      .update(d)
      .set({
        attempts,
        lastStatusCode: code,
        lastError: error,
        nextAttemptAt: new Date(deps.clock.now().getTime() + deps.outgoing.backoffMs * 2 ** (attempts - 1)),
      })
      .where(and(eq(d.agentId, agentId), eq(d.id, deliveryId), eq(d.status, "pending")));
    deps.metrics.eventDeliveries.inc({ result: "retrying" });
    return { result: "retry", error };
  }
  await finish(deps, agentId, deliveryId, { status: "failed", error, code, attempted: true });
  const [sub] = await deps.db
    .update(s)
    .set({ consecutiveFailures: sql`${s.consecutiveFailures} + 1` })
    .where(and(eq(s.agentId, agentId), eq(s.id, row.delivery.subscriptionId)))
    .returning({ failures: s.consecutiveFailures });
  if (deps.outgoing.disableAfter > 0 && (sub?.failures ?? 0) >= deps.outgoing.disableAfter) {
    await deps.db
      .update(s)
      .set({
        status: "disabled",
        disabledReason: `${sub?.failures} deliveries in a row failed after every attempt`,
        updatedAt: deps.clock.now(),
      })
      .where(and(eq(s.agentId, agentId), eq(s.id, row.delivery.subscriptionId), eq(s.status, "active")));
    deps.logger.warn("event subscription disabled", { agentId, subscriptionId: row.delivery.subscriptionId });
  }
  deps.metrics.eventDeliveries.inc({ result: "failed" });
  await pruneLog(deps, agentId, row.delivery.subscriptionId);
  return { result: "failed", error };
}

/**
 * Keeps a subscription's log to `logDays`: each finished delivery removes up to
 * OUTGOING_LIMITS.pruneBatch finished rows older than that, so the log is pruned as it grows, a
 * bounded statement at a time, with no job of its own.
 */
async function pruneLog(
  deps: Pick<OutgoingDeps, "db" | "clock" | "outgoing">,
  agentId: string,
  subscriptionId: string,
) {
  const cutoff = new Date(deps.clock.now().getTime() - deps.outgoing.logDays * 86_400_000).toISOString();
  await deps.db.execute(sql`
    DELETE FROM event_deliveries WHERE agent_id = ${agentId} AND id IN (
      SELECT id FROM event_deliveries
      WHERE agent_id = ${agentId} AND subscription_id = ${subscriptionId}
        AND created_at < ${cutoff}::timestamptz AND status <> 'pending'
      LIMIT ${OUTGOING_LIMITS.pruneBatch})`);
}

/** Records a final outcome on a delivery still pending (an erasure may have cancelled it meanwhile). */
async function finish(
  deps: Pick<OutgoingDeps, "db" | "clock">,
  agentId: string,
  deliveryId: string,
  out: { status: "delivered" | "failed"; error: string | null; code: number | null; attempted: boolean },
) {
  const d = eventDeliveries;
  await deps.db
    .update(d)
    .set({
      status: out.status,
      attempts: out.attempted ? sql`${d.attempts} + 1` : d.attempts,
      lastStatusCode: out.code,
      lastError: out.error,
      deliveredAt: out.status === "delivered" ? deps.clock.now() : null,
    })
    .where(and(eq(d.agentId, agentId), eq(d.id, deliveryId), eq(d.status, "pending")));
}
