import { asc, eq } from "drizzle-orm";
import { eventSubscriptions } from "../db/schema";
import type { MemoryDeps } from "../memory/deps";
import { type Subscription, toSubscription } from "./types";

/** The agent's subscriptions, oldest first (at most OUTGOING_LIMITS.subscriptionsPerAgent). */
export async function listSubscriptions(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
): Promise<Subscription[]> {
  const rows = await deps.db
    .select()
    .from(eventSubscriptions)
    .where(eq(eventSubscriptions.agentId, agentId))
    .orderBy(asc(eventSubscriptions.createdAt), asc(eventSubscriptions.id));
  return rows.map(toSubscription);
}
