/**
 * One reflection run as a pure plan: questions from recent memories, insights per question with
 * citations mapped to memory ids. No database here; the caller stores the insights as
 * `reflection` memories and records the run.
 */
import { Invalid } from "../../lib/errors.js";
import type { ChatMessage, ChatModel } from "../../providers/types.js";
import type { Memory } from "../types.js";
import { mapCitations } from "./citations.js";
import { normalize, parseInsights, parseQuestions } from "./parse.js";
import {
  DEFAULT_INSIGHTS,
  DEFAULT_QUESTIONS,
  PROMPT_VERSION,
  renderInsightsPrompt,
  renderQuestionsPrompt,
} from "./prompts/index.js";

export type ReflectionDeps = {
  chat: ChatModel;
  /** The ~100 most recent memories of one agent, any order the caller likes (numbered as given). */
  recent: () => Promise<Memory[]>;
  /** Memories of the same agent relevant to a question, best first; reflections included. */
  retrieve: (question: string) => Promise<Memory[]>;
};

export type ReflectionOptions = { questions?: number; insightsPerQuestion?: number };

export type ReflectionPlan = {
  promptVersion: string;
  questions: string[];
  insights: { description: string; citations: string[]; question: string }[];
  usage: { promptTokens: number; completionTokens: number; calls: number };
};

// Completion caps: a few lines are expected; these bound the cost of a rambling model.
const QUESTIONS_MAX_TOKENS = 400;
const INSIGHTS_MAX_TOKENS = 1000;

/**
 * Runs the paper's reflection steps against injected dependencies. Any failing LLM call or
 * dependency rejects the whole run (no partial plan), so the caller stores nothing.
 */
export async function runReflection(
  deps: ReflectionDeps,
  opts: ReflectionOptions = {},
): Promise<ReflectionPlan> {
  const questionCount = opts.questions ?? DEFAULT_QUESTIONS;
  const insightCount = opts.insightsPerQuestion ?? DEFAULT_INSIGHTS;
  const usage = { promptTokens: 0, completionTokens: 0, calls: 0 };
  const plan: ReflectionPlan = { promptVersion: PROMPT_VERSION, questions: [], insights: [], usage };

  const ask = async (messages: ChatMessage[], maxTokens: number): Promise<string> => {
    const res = await deps.chat.complete(messages, { maxTokens });
    usage.promptTokens += res.usage.promptTokens;
    usage.completionTokens += res.usage.completionTokens;
    usage.calls += 1;
    return res.text;
  };

  const recent = uniqueById(await deps.recent());
  // Nothing to reflect on: no LLM call, an empty plan the caller can still record.
  if (recent.length === 0) return plan;
  const agentId = recent[0]?.agentId;
  assertSameAgent(recent, agentId);

  const questionsText = await ask(
    renderQuestionsPrompt(
      recent.map((m) => m.description),
      questionCount,
    ),
    QUESTIONS_MAX_TOKENS,
  );
  plan.questions = parseQuestions(questionsText, questionCount);

  // Keyed by normalized description: the same insight reached from two questions is stored once.
  const byText = new Map<string, ReflectionPlan["insights"][number]>();
  // Sequential on purpose: three calls, a background job, and local LLM servers serve one at a time.
  for (const question of plan.questions) {
    const evidence = uniqueById(await deps.retrieve(question));
    assertSameAgent(evidence, agentId);
    // No evidence means nothing to cite, so no insight could be accepted: skip the call.
    if (evidence.length === 0) continue;
    const text = await ask(
      renderInsightsPrompt(
        question,
        evidence.map((m) => m.description),
        insightCount,
      ),
      INSIGHTS_MAX_TOKENS,
    );
    const parsed = parseInsights(text, evidence.length, insightCount);
    for (const insight of mapCitations(
      parsed,
      evidence.map((m) => m.id),
    )) {
      const key = normalize(insight.description);
      const seen = byText.get(key);
      // First wins; its citations grow by the later ones, which are equally real evidence.
      if (seen) seen.citations = [...new Set([...seen.citations, ...insight.citations])];
      else byText.set(key, { ...insight, question });
    }
  }
  plan.insights = [...byText.values()];
  return plan;
}

/** Drops repeated memories so each statement number maps to a distinct memory. */
function uniqueById(memories: Memory[]): Memory[] {
  const seen = new Set<string>();
  return memories.filter((m) => {
    if (seen.has(m.id)) return false;
    seen.add(m.id);
    return true;
  });
}

/** Citations must stay within one agent; memories of another agent here are a caller bug. */
function assertSameAgent(memories: Memory[], agentId: string | undefined): void {
  const other = memories.find((m) => m.agentId !== agentId);
  if (other)
    throw new Invalid("reflection evidence belongs to another agent", {
      field: "agentId",
      memoryId: other.id,
    });
}
