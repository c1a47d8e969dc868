import type { Services } from "../../services";
import type { JobName, Payload } from "../catalog";

/**
 * Where a job run stands: its id (the claim owner), its attempt (1-based) and whether it is the
 * last, and whether an earlier start of this same attempt never finished (its worker died:
 * BullMQ handed the stalled job to this worker), so state that attempt left behind is ours.
 */
export type JobRun = { jobId: string; attempt: number; maxAttempts: number; resumed: boolean };

/** The one context a processor gets: the services (src/services.ts) and the run. */
export type ProcessorContext = Services & { job: JobRun };

export const isFinalAttempt = (run: JobRun) => run.attempt >= run.maxAttempts;

/** One processor: validated payload in, a small summary out; throws to retry. */
export type Processor<N extends JobName> = (
  payload: Payload<N>,
  ctx: ProcessorContext,
) => Promise<Record<string, number | string>>;
