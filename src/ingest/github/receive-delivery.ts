import { githubDeliveries } from "../../db/schema";
import type { MemoryDeps } from "../../memory/deps";
import { erasureHorizon } from "../../memory/erasure/guard";
import { getDeliveryStatus } from "./delivery-status";

export type ReceivedDelivery = {
  /** `X-GitHub-Delivery`. */
  id: string;
  /** `X-GitHub-Event`. */
  event: string;
  /** The parsed, signature-checked body. */
  payload: unknown;
};

/**
 * Stores a delivery as `received` unless one with the same id exists (`ON CONFLICT DO NOTHING`):
 * a redelivery creates nothing new. `retry` is true when the earlier delivery still has work to
 * do (received or failed), so GitHub's "Redeliver" button doubles as a manual retry.
 */
export async function receiveDelivery(
  deps: Pick<MemoryDeps, "db" | "clock">,
  delivery: ReceivedDelivery,
): Promise<{ status: "accepted" } | { status: "duplicate"; retry: boolean }> {
  const action = (delivery.payload as { action?: unknown } | null)?.action;
  const inserted = await deps.db
    .insert(githubDeliveries)
    .values({
      id: delivery.id,
      event: delivery.event,
      action: typeof action === "string" ? action : null,
      status: "received",
      payload: delivery.payload,
      receivedAt: deps.clock.now(),
      // What it has seen of erasures: an agent erased after this gets nothing from it (ADR 0026).
      erasureHorizon: erasureHorizon,
    })
    .onConflictDoNothing({ target: githubDeliveries.id })
    .returning({ id: githubDeliveries.id });
  if (inserted.length > 0) return { status: "accepted" };
  const existing = await getDeliveryStatus(deps, delivery.id);
  return { status: "duplicate", retry: existing === "received" || existing === "failed" };
}
