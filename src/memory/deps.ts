import type { Core } from "../core";
import type { Embedder } from "../providers/types";
import type { LlmBudget } from "./budget/budget";
import type { RetrievalLogBounds } from "./learning/log";
import type { LearningConfig } from "./learning/state";
import type { RetrieveCache } from "./retrieve/cache-store";
import type { FastThresholds } from "./retrieve/fast-thresholds";

/** A memory whose importance or embedding still has to be computed. */
export type PendingWork = { memoryId: string; agentId: string; revision: number };

/**
 * Where new pending work is announced. The database row is the source of truth; this only
 * makes the work start sooner (a lost notification is picked up by the sweep).
 * Implementations never throw: a write that reached the database has succeeded.
 */
export interface EnrichmentNotifier {
  pending(items: PendingWork[]): Promise<void>;
}

export const noEnrichment: EnrichmentNotifier = { pending: async () => {} };

/**
 * Where "this agent gained importance" is announced, so a threshold reflection can start. The job
 * system implements it (src/jobs/notifiers.ts): when the agent is due, an `agent.reflect` job, one
 * per agent at a time. Implementations never throw and never reflect in the caller's process.
 */
export interface ReflectionScheduler {
  importanceAdded(agentId: string): Promise<void>;
}

export const noReflection: ReflectionScheduler = { importanceAdded: async () => {} };

/**
 * Where "this agent recorded an outcome of this task type" is announced, so an
 * `outcomes.consolidate` job can turn similar outcomes into a lesson. Never throws: the outcome
 * row says it is not consolidated yet, and the sweep finds it.
 */
export interface OutcomeScheduler {
  recorded(agentId: string, taskType: string | null): Promise<void>;
}

/**
 * Where "this agent gave feedback" is announced, so an `agent.learn` job can fit its weights
 * (src/memory/learning/). Never throws: the feedback is stored, and the next one announces again.
 */
export interface LearningScheduler {
  feedbackGiven(agentId: string): Promise<void>;
}

/**
 * Where "these memories now have a vector" is announced, so a `memories.supersede` job asks the
 * LLM whether each replaces earlier ones (src/memory/supersession/). Present only with an LLM and
 * MEMSTREAM_SUPERSESSION=llm. Never throws.
 */
export interface SupersessionScheduler {
  embedded(items: PendingWork[]): Promise<void>;
}

/** What the memory domain functions need: the core's database and clock plus the memory seams (src/compose.ts). */
export type MemoryDeps = Pick<Core, "db" | "clock"> & {
  /** Embeds query texts, and names the model retrieval uses by default. */
  embedder: Embedder;
  enrichment: EnrichmentNotifier;
  reflection: ReflectionScheduler;
  /** Told of each recorded outcome; absent = consolidation waits for the sweep. */
  outcomes?: OutcomeScheduler;
  /** Told of memories with a vector, to detect supersession; absent = no detection (no LLM). */
  supersession?: SupersessionScheduler;
  /** Told of feedback once an agent has enough for a fit; absent = no fits are started. */
  learner?: LearningScheduler;
  /** The agents' daily LLM budgets (src/memory/budget); absent = unlimited and uncounted. */
  budget?: LlmBudget;
  /** Learning's switch and thresholds; absent = LEARNING_DEFAULTS (off). */
  learning?: LearningConfig;
  /** Retrieval tuning; defaults apply when absent. */
  retrieval?: {
    fresh?: { max: number; timeoutMs: number };
    fast?: FastThresholds;
    /** The longest a retrieve's statements may run (statement and lock timeout); absent = LIMITS.retrieveTimeoutMs. */
    timeoutMs?: number;
    /** Bounds of the retrieval log (feedback, learned weights); absent = RETRIEVAL_LOG_DEFAULTS. */
    log?: RetrievalLogBounds;
    /** The result cache of identical retrieves (retrieve/cache.ts); absent = none. */
    cache?: RetrieveCache;
  };
};
