import { attemptDelivery } from "../../outgoing/deliver";
import type { Processor } from "./types";

/**
 * `events.deliver`: one signed POST of an outgoing event (src/outgoing/deliver.ts), its outcome
 * recorded on the delivery row. A failed attempt below the limit throws, so the queue tries again
 * after the events' backoff; delivered, failed for good or skipped (no longer pending) ends the job.
 */
export const deliverEvent: Processor<"events.deliver"> = async ({ agentId, deliveryId }, ctx) => {
  const outcome = await attemptDelivery(ctx, agentId, deliveryId);
  if (outcome.result === "retry") throw new Error(`delivery ${deliveryId} failed: ${outcome.error}`);
  return { result: outcome.result };
};
