/** The reflection_runs rows: claim (the per-agent lock), finish, fail, read. */
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { reflectionRuns } from "../../db/schema";
import { Conflict } from "../../lib/errors";
import { newId } from "../../lib/ids";
import type { ReflectionRun, ReflectionTrigger, RunStatus } from "./types";

type RunRow = typeof reflectionRuns.$inferSelect;

/**
 * A `running` row older than this is taken to be abandoned (its process died) and is marked
 * failed, so the agent is not locked out for ever. Far above any real run (a handful of LLM calls
 * bounded by the client timeout and retries).
 */
export const STALE_RUN_MS = 15 * 60_000;

/** Row → API shape. */
export function toRun(r: RunRow): ReflectionRun {
  return {
    id: r.id,
    agentId: r.agentId,
    trigger: r.trigger as ReflectionTrigger,
    status: r.status as RunStatus,
    promptVersion: r.promptVersion,
    questions: r.questions,
    insightIds: r.insightIds,
    usage: { promptTokens: r.promptTokens, completionTokens: r.completionTokens, llmCalls: r.llmCalls },
    error: r.error,
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Inserts the agent's `running` row, which is the lock: the partial unique index
 * `reflection_runs_one_running_idx` admits one per agent, in every process. Throws `Conflict`
 * naming the running run when there is one.
 */
export async function claimRun(
  db: Db,
  agentId: string,
  trigger: ReflectionTrigger,
  now: Date,
): Promise<RunRow> {
  await db
    .update(reflectionRuns)
    .set({ status: "failed", error: "abandoned: still running after 15 minutes", finishedAt: now })
    .where(
      and(
        eq(reflectionRuns.agentId, agentId),
        eq(reflectionRuns.status, "running"),
        lt(reflectionRuns.startedAt, new Date(now.getTime() - STALE_RUN_MS)),
      ),
    );
  const [row] = await db
    .insert(reflectionRuns)
    .values({ id: newId("ref"), agentId, trigger, status: "running", startedAt: now })
    .onConflictDoNothing()
    .returning();
  if (row) return row;
  const [running] = await db
    .select({ id: reflectionRuns.id })
    .from(reflectionRuns)
    .where(and(eq(reflectionRuns.agentId, agentId), eq(reflectionRuns.status, "running")));
  throw new Conflict(`a reflection is already running for agent ${agentId}`, { runId: running?.id ?? null });
}

/**
 * Marks the agent's `running` threshold run failed: only the agent's one `agent.reflect` job
 * starts threshold runs, so when that job is resumed after its worker died, such a run is the
 * dead attempt's (and were that worker alive after all, its run could no longer finish:
 * `finishRun` only touches `running` rows, so its insights roll back).
 */
export async function abandonThresholdRun(db: Db, agentId: string, now: Date): Promise<void> {
  await db
    .update(reflectionRuns)
    .set({ status: "failed", error: "abandoned: its worker died; the job was retried", finishedAt: now })
    .where(
      and(
        eq(reflectionRuns.agentId, agentId),
        eq(reflectionRuns.status, "running"),
        eq(reflectionRuns.trigger, "threshold"),
      ),
    );
}

/** Final state of a run. Only a still-`running` row changes; returns null if it was not (taken over as stale). */
export async function finishRun(
  db: Pick<Db, "update">,
  agentId: string,
  id: string,
  set: Partial<Pick<RunRow, "status" | "promptVersion" | "questions" | "insightIds" | "error">> & {
    usage: ReflectionRun["usage"];
    finishedAt: Date;
  },
): Promise<RunRow | null> {
  const { usage, ...rest } = set;
  const [row] = await db
    .update(reflectionRuns)
    .set({ ...rest, ...usage })
    .where(
      and(
        eq(reflectionRuns.agentId, agentId),
        eq(reflectionRuns.id, id),
        eq(reflectionRuns.status, "running"),
      ),
    )
    .returning();
  return row ?? null;
}
