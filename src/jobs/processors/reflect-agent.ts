import { reflectOnThreshold } from "../../memory/reflect/should-reflect";
import type { Processor } from "./types";

/** Runs per job at most: importance that arrived during a run (its enqueue found this job running) gets one more. */
const MAX_RUNS = 3;

/**
 * `agent.reflect`: a threshold reflection, enqueued when the agent's importance crossed its
 * threshold. Re-checks the threshold first (a late or duplicate job does nothing). A failed run
 * (LLM down) is recorded as a `failed` run and thrown, so the queue retries after a backoff; the
 * last attempt's failed run is final. A resumed job (its worker died mid-run) takes over the run
 * that worker left `running`. While the threshold is still reached after a run — importance stored
 * meanwhile, whose enqueue was a no-op because this job was running — it runs again.
 */
export const reflectAgentJob: Processor<"agent.reflect"> = async ({ agentId }, ctx) => {
  let runs = 0;
  let insights = 0;
  while (runs < MAX_RUNS) {
    const result = await reflectOnThreshold(ctx, agentId, { takeOver: ctx.job.resumed && runs === 0 });
    if (!result) break;
    runs++;
    if (result.run.status === "failed") {
      throw new Error(`reflection run ${result.run.id} failed: ${result.run.error ?? "unknown error"}`);
    }
    insights += result.insights.length;
  }
  return { runs, insights };
};
