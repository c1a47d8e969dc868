/**
 * When `mode: fast` runs its threshold search rather than the exact ranking. Measured
 * (docs/adr/0020, bench:retrieval): for a 10k stream the exact ranking took 16–34 ms and
 * the search 21–295 ms; for the 10k agent in a 1.2M-vector table the search's recall@10 against
 * exact fell to 0.88 (a filtered HNSW walk finds few of a small agent's vectors), while in a
 * 130k table (7.7 % of the vectors) it stayed at 0.99–1.00. Below either bound fast answers
 * exactly, and says `mode: exact`.
 */
export type FastThresholds = {
  /** Fewer memories (vectors of the query's model, with relevance) than this: exact. */
  minStream: number;
  /** A smaller share of the model's indexed vectors (the index's planner statistics) than this: exact. */
  minShare: number;
};

export const FAST_DEFAULTS: FastThresholds = { minStream: 20_000, minShare: 0.05 };
