/** Reflection runs as the domain and the API see them. */
import type { ChatModel } from "../../providers/types";
import type { MemoryDeps } from "../deps";

export const REFLECTION_TRIGGERS = ["threshold", "manual"] as const;
export type ReflectionTrigger = (typeof REFLECTION_TRIGGERS)[number];

export const RUN_STATUSES = ["running", "succeeded", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** One recorded reflection run: what triggered it, what it asked, what it stored, what it cost. */
export type ReflectionRun = {
  id: string;
  agentId: string;
  trigger: ReflectionTrigger;
  status: RunStatus;
  promptVersion: string | null;
  questions: string[];
  /** Ids of the `reflection` memories this run stored (empty unless it succeeded). */
  insightIds: string[];
  /** LLM usage, failed calls' partial usage included when the provider reported it. */
  usage: { promptTokens: number; completionTokens: number; llmCalls: number };
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
};

/** What reflecting needs beyond the memory deps: the chat model (null = reflection off) and the default threshold. */
export type ReflectAgentDeps = MemoryDeps & {
  chat: ChatModel | null;
  /** Deployment default threshold; an agent setting overrides it. 0 = no threshold trigger. */
  reflectionThreshold: number;
  /** Told of every finished run (succeeded or failed), e.g. to count runs and tokens in metrics. */
  onRunFinished: (run: ReflectionRun) => void;
};
