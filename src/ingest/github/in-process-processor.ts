import type { DeliveryProcessor, IngestDeps } from "./deps";
import { processDelivery } from "./process-delivery";

/** A `DeliveryProcessor` that also lets shutdown (and tests) wait for work in flight. */
export type InProcessDeliveryProcessor = DeliveryProcessor & {
  /** Resolves when every delivery enqueued so far has finished (processed, ignored or failed). */
  drain(): Promise<void>;
};

/**
 * Processes deliveries in this process, after the HTTP response has gone (setImmediate), one
 * promise per delivery. Errors are logged, not retried here: the delivery is left `failed` (or
 * `received` when the database was unreachable) for a redelivery or the recovery sweep. Used
 * until the job system runs `github.process-delivery` with retries.
 */
export function createInProcessDeliveryProcessor(deps: IngestDeps): InProcessDeliveryProcessor {
  const inFlight = new Set<Promise<void>>();
  const run = async (deliveryId: string) => {
    try {
      const outcome = await processDelivery(deps, deliveryId);
      deps.logger.debug("GitHub delivery processed", { deliveryId, ...outcome });
    } catch (error) {
      deps.logger.error("GitHub delivery failed", {
        deliveryId,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  };
  return {
    async enqueue(deliveryId) {
      const done = new Promise<void>((resolve) => setImmediate(() => void run(deliveryId).finally(resolve)));
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    },
    async drain() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
