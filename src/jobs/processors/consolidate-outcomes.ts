import { consolidateOutcomes, unconsolidated } from "../../memory/lessons/consolidate";
import { isFinalAttempt, type Processor } from "./types";

/** Runs per job at most: outcomes recorded during a run (their enqueue found this job running) get one more. */
const MAX_RUNS = 3;

/**
 * `outcomes.consolidate`: turns an agent's similar outcomes of one task type into lessons, or
 * revises the lessons they belong to. Idempotent: a run re-reads which outcomes are already in a
 * lesson, so a late or duplicate job changes nothing. An LLM failure throws (the queue retries
 * after a backoff); the last attempt words the lesson with the template instead.
 */
export const consolidateOutcomesJob: Processor<"outcomes.consolidate"> = async (p, ctx) => {
  const total = { runs: 0, created: 0, revised: 0, waiting: 0 };
  do {
    const r = await consolidateOutcomes(ctx, p.agentId, p.taskType, {
      templateFallback: isFinalAttempt(ctx.job),
    });
    total.runs++;
    total.created += r.created;
    total.revised += r.revised;
    total.waiting = r.waiting;
  } while (total.runs < MAX_RUNS && (await unconsolidated(ctx.db, p.agentId, p.taskType)));
  return total;
};
