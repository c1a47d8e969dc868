import { UnrecoverableError } from "bullmq";
import { AgentErased } from "../../memory/erasure/guard";
import type { Services } from "../../services";
import { JOBS, type JobName, type Payload } from "../catalog";
import { consolidateOutcomesJob } from "./consolidate-outcomes";
import { deliverEvent } from "./deliver-event";
import { deliverGithub } from "./deliver-github";
import { embedMemories } from "./embed-memories";
import { importGithub } from "./import-github";
import { learnAgentJob } from "./learn-agent";
import { reflectAgentJob } from "./reflect-agent";
import { retainAgentJob } from "./retain-agent";
import { scoreImportance } from "./score-importance";
import { supersedeMemories } from "./supersede-memories";
import type { JobRun, Processor } from "./types";

export type { JobRun, ProcessorContext } from "./types";

/** One processor per job of the catalog; a job without one fails the typecheck. */
const PROCESSORS: { [N in JobName]: Processor<N> } = {
  "memories.embed": embedMemories,
  "memories.score": scoreImportance,
  "memories.supersede": supersedeMemories,
  "github.deliver": deliverGithub,
  "github.import": importGithub,
  "agent.reflect": reflectAgentJob,
  "outcomes.consolidate": consolidateOutcomesJob,
  "agent.retain": retainAgentJob,
  "agent.learn": learnAgentJob,
  "events.deliver": deliverEvent,
};

/**
 * Runs one attempt of a job by name, whichever queue delivered it. The payload is validated
 * again (Redis content is input too); a bad one, or an unknown name, fails without retry. A job
 * whose agent was erased while it waited or ran (`AgentErased`: its write was refused in the
 * write's own transaction, ADR 0027) is done: it ends without writing and without a retry.
 */
export async function runJob(deps: Services, name: string, data: unknown, run: JobRun) {
  if (!(name in JOBS)) throw new UnrecoverableError(`unknown job ${name}`);
  const job = name as JobName;
  const parsed = JOBS[job].payload.safeParse(data);
  if (!parsed.success) throw new UnrecoverableError(`bad ${name} payload: ${parsed.error.message}`);
  const processor = PROCESSORS[job] as Processor<JobName>;
  try {
    return await processor(parsed.data as Payload<JobName>, { ...deps, job: run });
  } catch (error) {
    if (!(error instanceof AgentErased)) throw error;
    deps.logger.info("job ended without writing: its agent was erased", {
      job: name,
      agentId: error.agentId,
    });
    return { erased: error.agentId };
  }
}
