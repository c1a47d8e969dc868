/**
 * One reflection run for one agent, end to end: claim the agent's run, plan it with the LLM
 * (`plan.ts`), store the insights as `reflection` memories and the run's record together.
 */

import { and, desc, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import { memories } from "../../db/schema";
import { BudgetExhausted, NotConfigured } from "../../lib/errors";
import type { ChatModel } from "../../providers/types";
import { afterCommit } from "../after-commit";
import { createMemories } from "../create-memories";
import { AgentErased, agentEpoch, assertNotErased, type WrittenSince } from "../erasure/guard";
import { retrieve } from "../retrieve/retrieve";
import { toMemory } from "../serialize";
import type { Memory } from "../types";
import { type ReflectionPlan, runReflection } from "./plan";
import { claimRun, finishRun, toRun } from "./runs";
import type { ReflectAgentDeps, ReflectionRun, ReflectionTrigger } from "./types";

/** How many recent memories the questions are asked over (paper: the 100 most recent records). */
export const RECENT_MEMORIES = 100;
/** How many memories are retrieved as evidence for each question. */
export const EVIDENCE_K = 30;
const ERROR_CHARS = 1_000;

/** The outcome of a run: its record and, when it succeeded, the reflections it stored. */
export type ReflectionResult = { run: ReflectionRun; insights: Memory[] };

/**
 * Runs a reflection now. Throws `NotConfigured` without an LLM, `BudgetExhausted` when the
 * agent's daily LLM budget is spent, and `Conflict` while another run of this agent is in
 * progress (in any process). Any failure after the claim (LLM, embedder,
 * database) marks the run `failed` with the error and stores no insight; the run is returned,
 * not thrown, so callers decide what a failure means for them.
 */
export async function reflectAgent(
  deps: ReflectAgentDeps,
  agentId: string,
  trigger: ReflectionTrigger,
): Promise<ReflectionResult> {
  if (!deps.chat) {
    throw new NotConfigured(
      "reflection needs an LLM: set LLM_MODEL and OPENAI_BASE_URL (and OPENAI_API_KEY)",
    );
  }
  // A run admitted under the budget completes (its calls are counted); the next one waits.
  const budget = await deps.budget.status(agentId);
  if (budget?.exhausted) {
    throw new BudgetExhausted(
      `the agent's LLM budget for ${budget.day} is spent; reflection waits until ${budget.resetsAt}`,
      {
        resetsAt: budget.resetsAt,
        limits: budget.limits,
        spent: budget.spent,
      },
    );
  }
  // Before anything is read: insights drawn from a stream erased meanwhile are never stored.
  const since = { epoch: await agentEpoch(deps.db, agentId) };
  const claimed = await claimRun(deps.db, agentId, trigger, deps.clock.now());
  const { chat, usage } = countingChat(deps.chat, agentId);
  try {
    const plan = await runReflection({
      chat,
      recent: () => recentMemories(deps.db, agentId, RECENT_MEMORIES),
      // touch: false — reflecting is not the agent acting on a memory (docs/adr/0005-reflection-runs.md).
      retrieve: async (question) =>
        (await retrieve(deps, agentId, { query: question, k: EVIDENCE_K, touch: false })).memories,
    });
    return finished(deps, await storeInsights(deps, agentId, since, claimed.id, plan, usage));
  } catch (err) {
    // Erased meanwhile: the run's record went with the stream; nothing is left to mark.
    if (err instanceof AgentErased) throw err;
    const row = await finishRun(deps.db, agentId, claimed.id, {
      status: "failed",
      error: String((err as Error)?.message ?? err).slice(0, ERROR_CHARS),
      usage,
      finishedAt: deps.clock.now(),
    });
    return finished(deps, { run: row ? toRun(row) : toRun({ ...claimed, status: "failed" }), insights: [] });
  }
}

function finished(deps: ReflectAgentDeps, result: ReflectionResult): ReflectionResult {
  deps.onRunFinished(result.run);
  return result;
}

/**
 * Stores the plan's insights and marks the run succeeded in one transaction: all insights or
 * none. An insight citing a memory deleted while the LLM was thinking is dropped (docs/adr/0034);
 * the cited rows are locked `FOR SHARE` so none vanishes before commit.
 * Nothing is stored, and `AgentErased` thrown, when the agent was erased since `since`.
 */
async function storeInsights(
  deps: ReflectAgentDeps,
  agentId: string,
  since: WrittenSince,
  runId: string,
  plan: ReflectionPlan,
  usage: ReflectionRun["usage"],
): Promise<ReflectionResult> {
  // Announcements are held until the commit, so no job looks for rows that are not there yet.
  const held = afterCommit(deps.announce);
  const result = await deps.db.transaction(async (tx) => {
    await assertNotErased(tx, agentId, since);
    const cited = [...new Set(plan.insights.flatMap((i) => i.citations))];
    const alive = new Set(
      cited.length === 0
        ? []
        : (
            await tx
              .select({ id: memories.id })
              .from(memories)
              .where(and(eq(memories.agentId, agentId), inArray(memories.id, cited)))
              .for("share")
          ).map((r) => r.id),
    );
    // An insight drawn from a memory deleted meanwhile is dropped whole: its text is that memory's
    // data too (docs/adr/0034), as a stored reflection goes with its evidence.
    const inputs = plan.insights
      .filter((i) => i.citations.length > 0 && i.citations.every((c) => alive.has(c)))
      .map((i) => ({
        kind: "reflection" as const,
        description: i.description,
        citations: i.citations,
        promptVersion: plan.promptVersion,
        metadata: { reflectionRunId: runId, question: i.question },
      }));
    const insights =
      inputs.length === 0
        ? []
        : await createMemories({ ...deps, announce: held.announce, db: tx }, agentId, inputs);
    const row = await finishRun(tx, agentId, runId, {
      status: "succeeded",
      promptVersion: plan.promptVersion,
      questions: plan.questions,
      insightIds: insights.map((m) => m.id),
      usage,
      finishedAt: deps.clock.now(),
    });
    if (!row) throw new Error(`reflection run ${runId} is no longer running (taken over as stale)`);
    return { run: toRun(row), insights };
  });
  await held.flush();
  return result;
}

/**
 * The agent's most recent memories by createdAt, via the (agent, created) index: every kind but
 * document sections, which are reference text rather than experience to reflect on.
 */
async function recentMemories(db: Db, agentId: string, limit: number): Promise<Memory[]> {
  const rows = await db
    .select()
    .from(memories)
    .where(and(eq(memories.agentId, agentId), ne(memories.kind, "document")))
    .orderBy(desc(memories.createdAt), desc(memories.id))
    .limit(limit);
  // Oldest first, so the numbered statements read as a story.
  return rows.reverse().map(toMemory);
}

/**
 * Wraps a chat model to add up usage as calls complete, so a failed run still records what it
 * spent; each call is made for the agent, so a metered model counts it against its budget.
 */
function countingChat(inner: ChatModel, agentId: string): { chat: ChatModel; usage: ReflectionRun["usage"] } {
  const usage = { promptTokens: 0, completionTokens: 0, llmCalls: 0 };
  const chat: ChatModel = {
    modelId: inner.modelId,
    async complete(messages, options) {
      usage.llmCalls += 1;
      const res = await inner.complete(messages, { ...options, agentId });
      usage.promptTokens += res.usage.promptTokens;
      usage.completionTokens += res.usage.completionTokens;
      return res;
    },
  };
  return { chat, usage };
}
