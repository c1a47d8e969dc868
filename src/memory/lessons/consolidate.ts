import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { outcomes } from "../../db/schema";
import type { ChatModel, Embedder } from "../../providers/types";
import type { MemoryDeps } from "../deps";
import { agentEpoch } from "../erasure/guard";
import { recorded } from "../events";
import { cluster, type Point } from "./cluster";
import { LESSON_PROMPT_VERSION, parseLessonReply, renderLessonPrompt } from "./prompts";
import { lessonSettingsOf } from "./settings";
import {
  addOutcomes,
  emptyStats,
  type LessonFacts,
  lessonFacts,
  TEMPLATE_VERSION,
  templateWording,
} from "./stats";
import { createLesson, lessonsOfType, reviseLesson } from "./store";
import type { OutcomeFields } from "./types";

/** Newest outcomes of a task type one run considers; older ones not yet in a lesson are left out. */
export const OUTCOME_WINDOW = 200;
/** Members of a lesson its new outcomes are compared with (its newest). */
const LESSON_SAMPLE = 20;
/** Outcomes a lesson cites (its newest); older ones still count in its stats. */
export const MAX_LESSON_CITATIONS = 100;

/** The core's database and clock, where work is announced, and the models lessons use. */
export type ConsolidateDeps = Pick<MemoryDeps, "db" | "clock" | "announce" | "budget"> & {
  /** Embeds task texts for similarity (a cached one: runs embed the same tasks again). */
  taskEmbedder: Embedder;
  /** Words lessons when configured; null = the deterministic template. */
  chat: ChatModel | null;
};

export type ConsolidateResult = { considered: number; created: number; revised: number; waiting: number };

type OutcomeRow = OutcomeFields & { memoryId: string };

/**
 * One consolidation of an agent's outcomes of one task type (docs/adr/0018-outcomes-and-lessons.md):
 * outcomes not yet in a lesson join the lesson of similar outcomes (a new revision), or form a new
 * lesson once at least `minOutcomes` similar ones accumulate; the rest wait. Every outcome read is
 * marked consolidated, so the sweep only re-announces outcomes no run has seen.
 * `templateFallback`: word with the template when the LLM fails (the job's last attempt), instead of throwing.
 */
export async function consolidateOutcomes(
  deps: ConsolidateDeps,
  agentId: string,
  taskType: string | null,
  opts: { templateFallback: boolean },
): Promise<ConsolidateResult> {
  const now = deps.clock.now();
  // Before the outcomes are read: lessons drawn from a stream erased meanwhile are never stored.
  const since = { epoch: await agentEpoch(deps.db, agentId) };
  const settings = await lessonSettingsOf(deps.db, agentId);
  const lessons = await lessonsOfType(deps.db, agentId, taskType);
  const recent = (await recentOutcomes(deps.db, agentId, taskType)).reverse();
  const inLesson = new Set(lessons.flatMap((l) => l.citations));
  const fresh = recent.filter((o) => !inLesson.has(o.memoryId));
  // Past the agent's LLM budget lessons take the template wording (their `wording` says so); the next revision may reword them.
  const overBudget = deps.chat !== null && (await deps.budget.exhausted(agentId));
  if (overBudget) deps.budget.deferred("lesson");
  const chat = overBudget ? null : deps.chat;
  const word = (facts: LessonFacts) => wordLesson(chat, agentId, facts, opts.templateFallback);
  const result: ConsolidateResult = { considered: recent.length, created: 0, revised: 0, waiting: 0 };
  if (fresh.length === 0) {
    await markConsolidated(
      deps.db,
      agentId,
      recent.map((o) => o.memoryId),
      now,
    );
    return result;
  }

  const sampleIds = lessons.flatMap((l) => l.citations.slice(-LESSON_SAMPLE));
  const sampled = await outcomesById(deps.db, agentId, sampleIds);
  const byId = new Map([...sampled, ...recent].map((o) => [o.memoryId, o]));
  const vectors = await taskVectors(
    deps.taskEmbedder,
    [...byId.values()].map((o) => o.task),
  );
  const point = (id: string): Point[] => {
    const o = byId.get(id);
    const vector = o && vectors.get(o.task);
    return vector ? [{ id, vector }] : [];
  };
  const plan = cluster(
    fresh.flatMap((o) => point(o.memoryId)),
    lessons.map((l) => ({ lessonId: l.id, members: l.citations.slice(-LESSON_SAMPLE).flatMap(point) })),
    { threshold: settings.similarity, minOutcomes: settings.minOutcomes },
  );
  const fields = (ids: string[]) => ids.flatMap((id) => byId.get(id) ?? []);
  const pending: { memoryId: string; agentId: string; revision: number }[] = [];

  for (const lesson of lessons) {
    const joined = plan.joins.get(lesson.id);
    if (!joined) continue;
    const example = byId.get(lesson.citations[0] ?? "")?.task ?? fields(joined)[0]?.task ?? "";
    const facts = lessonFacts(taskType, example, addOutcomes(lesson.stats, fields(joined)));
    const outcomeIds = [...lesson.citations, ...joined].slice(-MAX_LESSON_CITATIONS);
    const wording = await word(facts);
    const revised = await reviseLesson(deps.db, agentId, since, now, lesson, facts, {
      ...wording,
      outcomeIds,
    });
    if (!revised) continue;
    result.revised++;
    if (revised.changed) pending.push({ memoryId: lesson.id, agentId, revision: revised.revision });
  }
  for (const group of plan.created) {
    const members = fields(group);
    const facts = lessonFacts(taskType, members[0]?.task ?? "", addOutcomes(emptyStats(), members));
    const wording = await word(facts);
    const outcomeIds = group.slice(-MAX_LESSON_CITATIONS);
    const id = await createLesson(deps.db, agentId, since, now, facts, { ...wording, outcomeIds });
    if (!id) continue;
    result.created++;
    pending.push({ memoryId: id, agentId, revision: 1 });
  }
  result.waiting = plan.waiting.length;
  await markConsolidated(
    deps.db,
    agentId,
    recent.map((o) => o.memoryId),
    now,
  );
  await deps.announce([
    ...(pending.length > 0 ? [{ kind: "memories.pending" as const, items: pending }] : []),
    // New or revised lessons' `lesson.written` events, if the agent has subscriptions.
    ...recorded([{ agentId }]),
  ]);
  return result;
}

/** Lesson wording: the LLM's through the versioned prompt, else (offline, or its last chance failed) the template. */
async function wordLesson(
  chat: ChatModel | null,
  agentId: string,
  facts: LessonFacts,
  templateFallback: boolean,
): Promise<{ description: string; wording: string }> {
  const template = { description: templateWording(facts), wording: TEMPLATE_VERSION };
  if (!chat) return template;
  try {
    const reply = await chat.complete(renderLessonPrompt(facts), { temperature: 0, maxTokens: 200, agentId });
    const text = parseLessonReply(reply.text, facts);
    if (!text) throw new Error("the model's answer is not a lesson (empty, too long, or naming no strategy)");
    return { description: text, wording: LESSON_PROMPT_VERSION };
  } catch (err) {
    if (templateFallback) return template;
    throw err;
  }
}

const columns = {
  memoryId: outcomes.memoryId,
  task: outcomes.task,
  taskType: outcomes.taskType,
  success: outcomes.success,
  strategy: outcomes.strategy,
  error: outcomes.error,
  durationMs: outcomes.durationMs,
};

async function recentOutcomes(db: Db, agentId: string, taskType: string | null): Promise<OutcomeRow[]> {
  return db
    .select(columns)
    .from(outcomes)
    .where(
      and(
        eq(outcomes.agentId, agentId),
        taskType === null ? isNull(outcomes.taskType) : eq(outcomes.taskType, taskType),
      ),
    )
    .orderBy(desc(outcomes.insertedAt), desc(outcomes.memoryId))
    .limit(OUTCOME_WINDOW);
}

async function outcomesById(db: Db, agentId: string, ids: string[]): Promise<OutcomeRow[]> {
  if (ids.length === 0) return [];
  return db
    .select(columns)
    .from(outcomes)
    .where(and(eq(outcomes.agentId, agentId), inArray(outcomes.memoryId, ids)));
}

/** One vector per distinct task text, in one batched call per `maxBatchSize`. */
async function taskVectors(embedder: Embedder, tasks: string[]): Promise<Map<string, number[]>> {
  const distinct = [...new Set(tasks)];
  const vectors = await embedder.embed(distinct);
  return new Map(distinct.flatMap((t, i) => (vectors[i] ? [[t, vectors[i]] as const] : [])));
}

async function markConsolidated(db: Db, agentId: string, ids: string[], now: Date) {
  if (ids.length === 0) return;
  await db
    .update(outcomes)
    .set({ consolidatedAt: now })
    .where(
      and(eq(outcomes.agentId, agentId), inArray(outcomes.memoryId, ids), isNull(outcomes.consolidatedAt)),
    );
}

/** Whether outcomes of this task type wait for a consolidation (recorded while a run was going). */
export async function unconsolidated(db: Db, agentId: string, taskType: string | null): Promise<boolean> {
  const [row] = await db
    .select({ id: outcomes.memoryId })
    .from(outcomes)
    .where(
      and(
        eq(outcomes.agentId, agentId),
        taskType === null ? isNull(outcomes.taskType) : eq(outcomes.taskType, taskType),
        isNull(outcomes.consolidatedAt),
      ),
    )
    .limit(1);
  return row !== undefined;
}
