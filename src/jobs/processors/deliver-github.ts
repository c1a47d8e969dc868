import { UnrecoverableError } from "bullmq";
import { processDelivery } from "../../ingest/github/process-delivery";
import { NotFound } from "../../lib/errors";
import type { Processor } from "./types";

/**
 * `github.deliver`: turns a stored delivery into observations (`processDelivery`: one transaction
 * under the row lock, so a re-run after a crash or a duplicate job never duplicates). A failure is
 * recorded on the delivery (`failed`, `attempts` + 1) and thrown, so the queue backs off and
 * retries; after the last attempt the delivery stays `failed` (the sweep retries it while its
 * attempts are below the limit; `POST …/deliveries/{id}/retry` by hand). An unknown id never retries.
 */
export const deliverGithub: Processor<"github.deliver"> = async ({ deliveryId }, ctx) => {
  try {
    const outcome = await processDelivery(ctx, deliveryId);
    const observations = outcome.status === "processed" ? outcome.observations : 0;
    return { status: outcome.status, observations };
  } catch (error) {
    if (error instanceof NotFound) throw new UnrecoverableError(error.message);
    throw error;
  }
};
