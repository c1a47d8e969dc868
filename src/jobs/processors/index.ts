import { UnrecoverableError } from "bullmq";
import { JOBS, type JobName } from "../catalog";
import { embedMemories } from "./embed-memories";
import { scoreImportance } from "./score-importance";
import type { JobContext, Processor, ProcessorDeps } from "./types";

export type { JobContext, ProcessorDeps } from "./types";

const PROCESSORS: Record<JobName, Processor> = {
  "memories.embed": embedMemories,
  "memories.score": scoreImportance,
};

/**
 * Runs one attempt of a job by name, whichever queue delivered it. The payload is validated
 * again (Redis content is input too); a bad one, or an unknown name, fails without retry.
 */
export async function runJob(deps: ProcessorDeps, name: string, data: unknown, ctx: JobContext) {
  if (!(name in JOBS)) throw new UnrecoverableError(`unknown job ${name}`);
  const parsed = JOBS[name as JobName].payload.safeParse(data);
  if (!parsed.success) throw new UnrecoverableError(`bad ${name} payload: ${parsed.error.message}`);
  return PROCESSORS[name as JobName](deps, parsed.data, ctx);
}
