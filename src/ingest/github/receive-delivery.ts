import { eq } from "drizzle-orm";
import { githubDeliveries } from "../../db/schema";
import type { MemoryDeps } from "../../memory/deps";
import { currentHorizon } from "../../memory/erasure/guard";
import { getDeliveryStatus } from "./delivery-status";

export type ReceivedDelivery = {
  /** `X-GitHub-Delivery`. */
  id: string;
  /** `X-GitHub-Event`. */
  event: string;
  /** The parsed, signature-checked body. */
  payload: unknown;
  /** SHA-256 (hex) of the signed body as received; absent = no replay check. */
  bodyHash?: string;
};

export type Receipt =
  | { status: "accepted" }
  /** The same delivery id again; `retry` when it still has work to do. */
  | { status: "duplicate"; retry: boolean }
  /** The same body under a new delivery id: recorded as ignored, its payload not stored again. */
  | { status: "replay"; of: string };

/**
 * Stores a delivery as `received` unless one with the same id exists: a redelivery creates
 * nothing new, and `retry` is true when the earlier delivery still has work to do (received or
 * failed), so GitHub's "Redeliver" button doubles as a manual retry. A body already received
 * under another delivery id (the same `bodyHash`: a replay; GitHub's own bodies differ) is
 * recorded as `ignored`, naming the first, without a second copy of the payload (up to the body
 * limit each). Both checks are the table's unique keys, so concurrent requests agree.
 */
export async function receiveDelivery(
  deps: Pick<MemoryDeps, "db" | "clock">,
  delivery: ReceivedDelivery,
): Promise<Receipt> {
  const action = (delivery.payload as { action?: unknown } | null)?.action;
  const row = {
    id: delivery.id,
    event: delivery.event,
    action: typeof action === "string" ? action : null,
    receivedAt: deps.clock.now(),
    // What it has seen of erasures: an agent erased after this gets nothing from it (ADR 0027).
    erasureHorizon: await currentHorizon(deps.db),
  };
  const inserted = await deps.db
    .insert(githubDeliveries)
    .values({ ...row, status: "received", payload: delivery.payload, payloadHash: delivery.bodyHash ?? null })
    .onConflictDoNothing()
    .returning({ id: githubDeliveries.id });
  if (inserted.length > 0) return { status: "accepted" };
  const existing = await getDeliveryStatus(deps, delivery.id);
  if (existing !== null)
    return { status: "duplicate", retry: existing === "received" || existing === "failed" };
  const [first] = await deps.db
    .select({ id: githubDeliveries.id })
    .from(githubDeliveries)
    .where(eq(githubDeliveries.payloadHash, delivery.bodyHash ?? ""));
  const of = first?.id ?? "an earlier delivery";
  await deps.db
    .insert(githubDeliveries)
    .values({
      ...row,
      status: "ignored",
      reason: `the same body as delivery ${of}, replayed under a new delivery id: not stored again`,
      processedAt: row.receivedAt,
    })
    .onConflictDoNothing();
  return { status: "replay", of };
}
