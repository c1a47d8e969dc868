import type { Core } from "../core";
import type { Embedder } from "../providers/types";
import type { LlmBudget } from "./budget/budget";
import type { Announce } from "./events";
import type { RetrievalLogBounds } from "./learning/log";
import type { LearningConfig } from "./learning/state";
import type { RetrieveCache } from "./retrieve/cache-store";
import type { FastThresholds } from "./retrieve/fast-thresholds";

/** What the memory domain functions need of the services (src/services.ts): the core's database and clock plus where work is announced. */
export type MemoryDeps = Pick<Core, "db" | "clock"> & {
  /** Embeds query texts, and names the model retrieval uses by default. */
  embedder: Embedder;
  /** Where work that became possible is announced after a commit (events.ts; the job system turns it into jobs). */
  announce: Announce;
  /**
   * Memories given a vector are marked to be checked for supersession and announced
   * (`memories.embedded`): true with an LLM and MEMSTREAM_SUPERSESSION=llm.
   */
  supersession: boolean;
  /** The agents' daily LLM budgets (src/memory/budget): counted always, unlimited unless configured. */
  budget: LlmBudget;
  /** Learning's switch and thresholds (config: MEMSTREAM_LEARN_*). */
  learning: LearningConfig;
  /** Retrieval's bounds and tuning (config: MEMSTREAM_RETRIEVE_*, MEMSTREAM_FAST_*, MEMSTREAM_RETRIEVAL_LOG_*). */
  retrieval: RetrievalSettings;
};

/** What retrieval reads from the configuration, each value given (defaults live in src/config.ts only). */
export type RetrievalSettings = {
  /** Read your own writes: how many pending memories a retrieve embeds inline, within what time. */
  fresh: { max: number; timeoutMs: number };
  fast: FastThresholds;
  /** The longest a retrieve's statements may run (statement and lock timeout). */
  timeoutMs: number;
  /** Bounds of the retrieval log (feedback, learned weights). */
  log: RetrievalLogBounds;
  /** The result cache of identical retrieves (retrieve/cache-store.ts); null = none (tools without one). */
  cache: RetrieveCache | null;
};
