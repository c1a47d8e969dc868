import { and, eq } from "drizzle-orm";
import { githubDeliveries } from "../../db/schema";
import type { AgentScope } from "../../lib/agent-scope";
import { Conflict, NotFound } from "../../lib/errors";
import type { MemoryDeps } from "../../memory/deps";
import { visibleTo } from "./delivery-scope";

/**
 * Retries a delivery by hand: announces it again (`delivery.accepted`: its `github.deliver` job, a
 * no-op while one is already queued or backing off). Only `received` and `failed` deliveries have work left; `processed` and
 * `ignored` are final (`Conflict`). With `scope` (a tenant-scoped key) a delivery not routed
 * to any agent of the scope does not exist for the caller (`NotFound`), as in the listing.
 * The failed-attempt count is kept: it is the delivery's history, and the sweep's limit.
 */
export async function retryDelivery(
  deps: Pick<MemoryDeps, "db" | "announce">,
  id: string,
  scope: AgentScope | null,
): Promise<{ deliveryId: string; status: "queued" }> {
  const [row] = await deps.db
    .select({ status: githubDeliveries.status })
    .from(githubDeliveries)
    .where(and(eq(githubDeliveries.id, id), visibleTo(scope)));
  if (!row) throw new NotFound(`GitHub delivery ${id} not found`, { deliveryId: id });
  if (row.status === "processed" || row.status === "ignored") {
    throw new Conflict(`GitHub delivery ${id} is already ${row.status}; there is nothing to retry`, {
      deliveryId: id,
      status: row.status,
    });
  }
  await deps.announce([{ kind: "delivery.accepted", deliveryId: id }]);
  return { deliveryId: id, status: "queued" };
}
