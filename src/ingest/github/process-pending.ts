import { and, asc, eq, lt } from "drizzle-orm";
import { githubDeliveries } from "../../db/schema";
import type { Logger } from "../../lib/logger";
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

/** Runs `processPendingDeliveries` now and every `intervalMs`; never stacks runs; `stop()` waits for the current one. */
export function startDeliverySweep(
  deps: IngestDeps,
  opts: { intervalMs: number; olderThanMs: number; logger: Logger },
): { stop(): Promise<void> } {
  let current: Promise<unknown> = Promise.resolve();
  let running = false;
  const tick = (olderThanMs: number) => {
    if (running) return;
    running = true;
    current = processPendingDeliveries(deps, { olderThanMs })
      .then((c) => c.processed + c.ignored + c.failed > 0 && opts.logger.info("GitHub delivery sweep", c))
      .catch((error: unknown) => opts.logger.warn("GitHub delivery sweep failed", { error: String(error) }))
      .finally(() => {
        running = false;
      });
  };
  // At start-up everything still `received` was left by an earlier process.
  tick(0);
  const timer = setInterval(() => tick(opts.olderThanMs), opts.intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await current;
    },
  };
}
