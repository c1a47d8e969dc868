import { and, eq } from "drizzle-orm";
import { eventDeliveries, eventSubscriptions } from "../db/schema";
import { Conflict, NotFound } from "../lib/errors";
import { newId } from "../lib/ids";
import type { MemoryDeps } from "../memory/deps";
import type { Announce } from "../memory/events";
import { type Delivery, toDelivery } from "./types";

/**
 * Sends a logged delivery again: a new delivery (its own id and attempts, `redeliveryOf` naming
 * the first) of the same event, with the same event id, to the same subscription, announced after
 * it commits. Refused (Conflict) for a delivery whose content an erasure removed, a pending one
 * (it is still being sent) and a disabled subscription's.
 */
export async function redeliver(
  deps: Pick<MemoryDeps, "db"> & { announce: Announce },
  agentId: string,
  subscriptionId: string,
  deliveryId: string,
): Promise<Delivery> {
  const d = eventDeliveries;
  const created = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ delivery: d, subscriptionStatus: eventSubscriptions.status })
      .from(d)
      .innerJoin(
        eventSubscriptions,
        and(eq(eventSubscriptions.agentId, d.agentId), eq(eventSubscriptions.id, d.subscriptionId)),
      )
      .where(and(eq(d.agentId, agentId), eq(d.subscriptionId, subscriptionId), eq(d.id, deliveryId)));
    if (!row) {
      throw new NotFound(`delivery ${deliveryId} not found for subscription ${subscriptionId}`, {
        id: deliveryId,
      });
    }
    const old = row.delivery;
    if (old.status === "cancelled") {
      throw new Conflict(`delivery ${deliveryId} was cancelled by an erasure; its content is gone`, {
        id: deliveryId,
      });
    }
    if (old.status === "pending") {
      throw new Conflict(`delivery ${deliveryId} is still pending`, { id: deliveryId });
    }
    if (row.subscriptionStatus !== "active") {
      throw new Conflict(`subscription ${subscriptionId} is disabled`, { id: subscriptionId });
    }
    const [fresh] = await tx
      .insert(d)
      .values({
        agentId,
        id: newId("evd"),
        subscriptionId,
        eventId: old.eventId,
        event: old.event,
        payload: old.payload,
        content: old.content,
        redeliveryOf: old.id,
      })
      .returning();
    if (!fresh) throw new Error("insert returned no row");
    return fresh;
  });
  await deps.announce([{ kind: "events.pending", deliveries: [{ agentId, deliveryId: created.id }] }]);
  return toDelivery(created);
}
