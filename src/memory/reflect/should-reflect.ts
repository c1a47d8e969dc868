/**
 * The threshold trigger (paper: reflect when the summed importance of the latest events reaches
 * 150). Rule, in docs/adr/0005-reflection-runs.md: the sum counts memories other than reflections
 * (and document sections: reference text, not experience; and summaries: their members counted
 * when they were written) inserted after the start of the agent's latest succeeded or running run.
 */
import { desc, eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { agentSettings, reflectionRuns } from "../../db/schema";
import { BudgetExhausted, Conflict } from "../../lib/errors";
import { type ReflectionResult, reflectAgent } from "./reflect";
import { abandonThresholdRun } from "./runs";
import type { ReflectAgentDeps } from "./types";

/**
 * Summed importance of the agent's scored memories other than reflections, document sections and summaries inserted (wall clock) after the
 * latest succeeded or running reflection started; all of them when there was none. One statement.
 * Failed runs do not reset the sum, so the next important memory retries the reflection.
 */
export async function importanceSinceLastReflection(
  db: Pick<Db, "execute">,
  agentId: string,
): Promise<number> {
  const [row] = await queryRows<{ total: string | number }>(
    db,
    sql`SELECT coalesce(sum(m.importance), 0) AS total FROM memories m
      WHERE m.agent_id = ${agentId} AND m.kind NOT IN ('reflection', 'document', 'summary') AND m.importance IS NOT NULL
        AND m.inserted_at > coalesce(
          (SELECT max(r.started_at) FROM reflection_runs r
            WHERE r.agent_id = ${agentId} AND r.status IN ('succeeded', 'running')),
          '-infinity'::timestamptz)`,
  );
  return Number(row?.total ?? 0);
}

/** The agent's threshold: its own setting, else the deployment default. 0 means no threshold trigger. */
export async function reflectionThreshold(
  deps: Pick<ReflectAgentDeps, "db" | "reflectionThreshold">,
  agentId: string,
): Promise<number> {
  const [row] = await deps.db
    .select({ threshold: agentSettings.reflectionThreshold })
    .from(agentSettings)
    .where(eq(agentSettings.agentId, agentId));
  return row?.threshold ?? deps.reflectionThreshold;
}

/**
 * After a failed run, threshold triggers wait this long before trying again, so an LLM outage does
 * not cost one failing run per stored memory. Manual reflection is not held back.
 */
export const FAILED_RUN_BACKOFF_MS = 5 * 60_000;

/** True when the agent's latest run failed less than `FAILED_RUN_BACKOFF_MS` ago. */
async function backingOff(deps: Pick<ReflectAgentDeps, "db" | "clock">, agentId: string): Promise<boolean> {
  const [last] = await deps.db
    .select({ status: reflectionRuns.status, finishedAt: reflectionRuns.finishedAt })
    .from(reflectionRuns)
    .where(eq(reflectionRuns.agentId, agentId))
    .orderBy(desc(reflectionRuns.startedAt))
    .limit(1);
  if (last?.status !== "failed" || !last.finishedAt) return false;
  return deps.clock.now().getTime() - last.finishedAt.getTime() < FAILED_RUN_BACKOFF_MS;
}

/** True when reflection is on for the agent and its importance since the last reflection reached its threshold. */
async function thresholdReached(deps: ReflectAgentDeps, agentId: string): Promise<boolean> {
  if (!deps.chat) return false;
  const threshold = await reflectionThreshold(deps, agentId);
  if (threshold <= 0) return false;
  return (await importanceSinceLastReflection(deps.db, agentId)) >= threshold;
}

/**
 * Whether a threshold reflection should be enqueued now: the threshold is reached, the agent
 * is not backing off after a failed run, and its LLM budget is not spent. Asked when importance is added (one indexed sum).
 */
export async function dueForReflection(deps: ReflectAgentDeps, agentId: string): Promise<boolean> {
  if (!(await thresholdReached(deps, agentId)) || (await backingOff(deps, agentId))) return false;
  // Past the day's LLM budget no job is enqueued: the first importance added after the day turns asks again.
  if (await deps.budget.exhausted(agentId)) {
    deps.budget.deferred("reflection");
    return false;
  }
  return true;
}

/**
 * Runs a `threshold` reflection when the agent's importance since its last reflection has reached
 * its threshold: the `agent.reflect` job's one call. Returns null when reflection is off, not due,
 * or already running elsewhere; otherwise the run's result (which may be a failed run). No backoff
 * check: the job was enqueued when due, and its retries are the backoff. `takeOver` (a job
 * resumed after its worker died) first fails the threshold run that worker left `running` — before
 * the threshold check, which counts importance since the latest running run.
 */
export async function reflectOnThreshold(
  deps: ReflectAgentDeps,
  agentId: string,
  opts: { takeOver: boolean } = { takeOver: false },
): Promise<ReflectionResult | null> {
  if (opts.takeOver) await abandonThresholdRun(deps.db, agentId, deps.clock.now());
  if (!(await thresholdReached(deps, agentId))) return null;
  try {
    return await reflectAgent(deps, agentId, "threshold");
  } catch (err) {
    // Another process is reflecting this agent right now: that run covers these memories.
    if (err instanceof Conflict) return null;
    // The day's budget is spent: the threshold stays reached, and the next day's first importance asks again.
    if (err instanceof BudgetExhausted) {
      deps.budget.deferred("reflection");
      return null;
    }
    throw err;
  }
}
