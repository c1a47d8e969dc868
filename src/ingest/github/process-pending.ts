import { and, asc, eq, lt } from "drizzle-orm";
import { githubDeliveries } from "../../db/schema";
import type { IngestDeps } from "./deps";
import { processDelivery } from "./process-delivery";

/**
 * Recovery sweep: finishes deliveries stuck in `received` for longer than `olderThanMs` (an
 * enqueue lost to a crash or a queue outage). The database is the source of truth for pending
 * work. Processes oldest first, one at a time, at most `limit` per call; each failure is
 * recorded on its delivery (`failed`) and the sweep goes on. Safe to run beside live processing:
 * `processDelivery` locks the row and skips final deliveries.
 */
export async function processPendingDeliveries(
  deps: IngestDeps,
  opts: { olderThanMs: number; limit?: number },
): Promise<{ processed: number; ignored: number; failed: number }> {
  const cutoff = new Date(deps.memory.clock.now().getTime() - opts.olderThanMs);
  const rows = await deps.memory.db
    .select({ id: githubDeliveries.id })
    .from(githubDeliveries)
    .where(and(eq(githubDeliveries.status, "received"), lt(githubDeliveries.receivedAt, cutoff)))
    .orderBy(asc(githubDeliveries.receivedAt))
    .limit(opts.limit ?? 100);
  const counts = { processed: 0, ignored: 0, failed: 0 };
  for (const { id } of rows) {
    try {
      const outcome = await processDelivery(deps, id);
      if (outcome.status === "processed") counts.processed++;
      if (outcome.status === "ignored") counts.ignored++;
    } catch (error) {
      counts.failed++;
      deps.logger.warn("sweep: GitHub delivery failed", { deliveryId: id, error: String(error) });
    }
  }
  return counts;
}
