/**
 * The threshold trigger (paper: reflect when the summed importance of the latest events reaches
 * 150). Rule, in docs/adr/0005-reflection-runs.md: the sum counts memories other than reflections
 * (and document sections: reference text, not experience) inserted after the start of the agent's latest succeeded or running run.
 */
import { desc, eq, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { agentSettings, reflectionRuns } from "../../db/schema";
import { Conflict } from "../../lib/errors";
import { type ReflectionResult, reflectAgent } from "./reflect";
import type { ReflectAgentDeps } from "./types";

/**
 * Summed importance of the agent's scored memories other than reflections and document sections inserted (wall clock) after the
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
      WHERE m.agent_id = ${agentId} AND m.kind NOT IN ('reflection', 'document') AND m.importance IS NOT NULL
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

/**
 * Runs a `threshold` reflection when the agent's importance since its last reflection has reached
 * its threshold. Returns null when reflection is off (no LLM, threshold 0), not due, backing off after a
 * failed run, or already running elsewhere; otherwise the run's result (which may be a failed run). This is the one call a
 * job processor makes after importance is scored.
 */
export async function maybeReflect(
  deps: ReflectAgentDeps,
  agentId: string,
): Promise<ReflectionResult | null> {
  if (!deps.chat) return null;
  const threshold = await reflectionThreshold(deps, agentId);
  if (threshold <= 0) return null;
  if ((await importanceSinceLastReflection(deps.db, agentId)) < threshold) return null;
  if (await backingOff(deps, agentId)) return null;
  try {
    return await reflectAgent(deps, agentId, "threshold");
  } catch (err) {
    // Another process is reflecting this agent right now: that run covers these memories.
    if (err instanceof Conflict) return null;
    throw err;
  }
}
