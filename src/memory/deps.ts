import type { Core } from "../core";
import type { Embedder } from "../providers/types";
import type { LlmBudget } from "./budget/budget";
import type { Announce } from "./events";
import type { RetrievalLogBounds } from "./learning/log";
import type { LearningConfig } from "./learning/state";
import type { RetrieveCache } from "./retrieve/cache-store";
import type { FastThresholds } from "./retrieve/fast-thresholds";

/** What the memory domain functions need: the core's database and clock plus where work is announced (src/compose.ts). */
export type MemoryDeps = Pick<Core, "db" | "clock"> & {
  /** Embeds query texts, and names the model retrieval uses by default. */
  embedder: Embedder;
  /** Where work that became possible is announced after a commit (events.ts; the job system turns it into jobs). */
  announce: Announce;
  /**
   * Memories given a vector are marked to be checked for supersession and announced
   * (`memories.embedded`): an LLM and MEMSTREAM_SUPERSESSION=llm. Absent = neither.
   */
  supersession?: boolean;
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
