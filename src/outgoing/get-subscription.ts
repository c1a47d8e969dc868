import { and, eq } from "drizzle-orm";
import { eventSubscriptions } from "../db/schema";
import { NotFound } from "../lib/errors";
import type { MemoryDeps } from "../memory/deps";
import { type Subscription, toSubscription } from "./types";

/** One subscription of the agent; NotFound when the agent has none by that id. */
export async function getSubscription(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  id: string,
): Promise<Subscription> {
  const [row] = await deps.db
    .select()
    .from(eventSubscriptions)
    .where(and(eq(eventSubscriptions.agentId, agentId), eq(eventSubscriptions.id, id)));
  if (!row) throw new NotFound(`subscription ${id} not found for agent ${agentId}`, { id });
  return toSubscription(row);
}
