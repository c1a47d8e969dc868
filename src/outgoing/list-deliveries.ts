import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import { eventDeliveries } from "../db/schema";
import type { EventDeliveryStatus } from "../db/schema/event-deliveries";
import type { MemoryDeps } from "../memory/deps";
import { getSubscription } from "./get-subscription";
import { type Delivery, toDelivery } from "./types";

/**
 * A subscription's delivery log, newest first: status, attempts, last response code or error, the
 * next attempt of a pending one. `before` (a delivery id of an earlier page) pages back.
 * NotFound when the agent has no such subscription.
 */
export async function listDeliveries(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  subscriptionId: string,
  opts: { limit: number; status?: EventDeliveryStatus; before?: string },
): Promise<Delivery[]> {
  await getSubscription(deps, agentId, subscriptionId);
  const d = eventDeliveries;
  const conds: (SQL | undefined)[] = [eq(d.agentId, agentId), eq(d.subscriptionId, subscriptionId)];
  if (opts.status) conds.push(eq(d.status, opts.status));
  if (opts.before) {
    const [at] = await deps.db
      .select({ createdAt: d.createdAt })
      .from(d)
      .where(and(eq(d.agentId, agentId), eq(d.id, opts.before)));
    if (at) {
      conds.push(
        or(lt(d.createdAt, at.createdAt), and(eq(d.createdAt, at.createdAt), lt(d.id, opts.before))),
      );
    }
  }
  const rows = await deps.db
    .select()
    .from(d)
    .where(and(...conds))
    .orderBy(desc(d.createdAt), desc(d.id))
    .limit(opts.limit);
  return rows.map(toDelivery);
}
