/**
 * When `mode: fast` runs its threshold search rather than the exact ranking: below minStream the
 * exact ranking is never slower, and below minShare a filtered HNSW walk passes mostly other
 * agents' vectors and misses the agent's (docs/adr/0020). Below either bound fast answers
 * exactly, and says `mode: exact`.
 */
export type FastThresholds = {
  /** Fewer memories (vectors of the query's model, with relevance) than this: exact. */
  minStream: number;
  /** A smaller share of the model's indexed vectors (the index's planner statistics) than this: exact. */
  minShare: number;
};

export const FAST_DEFAULTS: FastThresholds = { minStream: 20_000, minShare: 0.05 };
