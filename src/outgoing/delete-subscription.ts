import { and, eq } from "drizzle-orm";
import { eventSubscriptions } from "../db/schema";
import { NotFound } from "../lib/errors";
import type { MemoryDeps } from "../memory/deps";

/**
 * Deletes a subscription and its delivery log (cascade): nothing more is written for it, and a
 * delivery job still queued finds no row and ends without sending.
 */
export async function deleteSubscription(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  id: string,
): Promise<{ id: string; deleted: true }> {
  const gone = await deps.db
    .delete(eventSubscriptions)
    .where(and(eq(eventSubscriptions.agentId, agentId), eq(eventSubscriptions.id, id)))
    .returning({ id: eventSubscriptions.id });
  if (gone.length === 0) throw new NotFound(`subscription ${id} not found for agent ${agentId}`, { id });
  return { id, deleted: true };
}
