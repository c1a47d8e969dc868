import { Invalid } from "../../lib/errors";
import type { FastThresholds } from "./fast-thresholds";
import type { HnswIndex } from "./hnsw-index";
import { narrowed, type RankParams } from "./statements/params";
import { PHASE_SIZES, PHASES_FULL_FROM, type PhaseSizes, SMALL_PHASE_SIZES } from "./statements/phased";

/**
 * `exact` ranks the whole candidate set by the formula; `fast` runs the threshold search over
 * indexes; `auto` ranks in phases where the ranking allows it (statements/phased.ts), else exactly.
 */
export type RetrieveMode = "auto" | "exact" | "fast";

/**
 * The ranking statements (statements/): `full` scores every candidate; `sections` does so per
 * section; `threshold` ranks a whole stream exactly while joining only the memories that can
 * still reach the top k; `fused` does so for relevance fused from words and a vector, its words
 * read through the GIN index; `fast` is the threshold search over indexes (exact as far as HNSW is).
 */
export const STATEMENTS = ["full", "sections", "threshold", "fused", "fast", "phased"] as const;
export type Statement = (typeof STATEMENTS)[number];

export type ExactPlan = {
  statement: Exclude<Statement, "fast" | "phased">;
  /** Why this statement, as the answer's `ranking.planReason` gives it. */
  reason: string;
  /** Parallel workers for the statement (execute.ts useExactScan). */
  workers: boolean;
};
export type FastPlan = {
  statement: "fast";
  reason: string;
  workers: false;
  /** The query model's HNSW index; null without a query vector (the recency + importance list alone). */
  index: HnswIndex | null;
  /** What answers when no round of the search is certain. */
  fallback: ExactPlan;
};
/** Ranking in phases (statements/phased.ts): seeds from indexes, the formula on them. */
export type PhasedPlan = {
  statement: "phased";
  reason: string;
  workers: false;
  /** The query model's HNSW index; null: the nearest are found by a top-N scan. */
  index: HnswIndex | null;
  /** How many seeds each index gives (statements/phased.ts). */
  sizes: PhaseSizes;
};
export type Plan = ExactPlan | FastPlan | PhasedPlan;

/** What the planner knows about the agent's stream before ranking (agent-state.ts reads it). */
export type StreamState = {
  /** Fewer than MIN_STREAM memories (a count that stops there); false when not counted. */
  small: boolean;
  /** The planner's statistics put the stream at WORKERS_MIN_STREAM memories or more. */
  large: boolean;
  /** Mode fast only (readFastState): the index of the query's model, and what the gate counts. */
  fast?: FastState;
  /** Mode auto with a query vector: the query model's HNSW index (null: none), for the phased plan. */
  index?: HnswIndex | null;
  /** The planner's estimate of the stream's memories (null: never analyzed), for the phases' sizes. */
  rows?: number | null;
};

export type FastState = {
  index: HnswIndex | null;
  /** Vectors of the query's model (memories, without a query), counted up to what the gate needs. */
  vectors: number;
  /** Entries of the model's index as its statistics count them (0 without an index). */
  indexed: number;
};

/**
 * Below this many memories every memory is ranked (full) rather than by the threshold statement:
 * the threshold statement's lists could hold the whole stream, so planning them is cost without
 * pruning (docs/adr/0003, docs/adr/0020).
 */
export const MIN_STREAM = 3_300;

/**
 * Streams of at least this many memories (as the planner's statistics estimate them; agent-state.ts)
 * get parallel workers for the whole-stream fused relevance statement. That statement scans both
 * tables in full (BM25 and the neighbour window need every memory); workers split the two scans.
 * Below it starting workers costs more than they save (docs/adr/0014).
 */
export const WORKERS_MIN_STREAM = 50_000;

/** What the planner reads of a request: its candidate set, relevance, weights and mode. */
export type PlanRequest = Pick<
  RankParams,
  "query" | "lexical" | "filters" | "timeWindow" | "sections" | "weights" | "lift"
> & { mode: RetrieveMode };

/**
 * The one place that decides which statement ranks a request, and says why. `auto` always ranks
 * exactly: the fast path is a threshold search that is exact only as far as HNSW returns the
 * nearest vectors in order and finds the farthest one, which on random vectors it does not
 * (docs/adr/0020), so a caller gets it only by asking for `fast`. Even then a stream below
 * `thresholds` ranks exactly: there the exact ranking is the faster one, or the filtered HNSW
 * walk the search relies on misses the agent's vectors. Throws Invalid (400) for what fast cannot
 * do (docs/adr/0023).
 */
export function plan(r: PlanRequest, state: StreamState, thresholds: FastThresholds): Plan {
  const exact = exactPlan(r, state);
  if (r.mode === "auto") return phasedPlan(r, state) ?? exact;
  if (r.mode !== "fast") return exact;
  // Lexical and hybrid relevance rank exactly: there is no lexical candidate list in the fast
  // path yet, and silently dropping the words would answer a different question.
  if (r.lexical) {
    throw new Invalid(`mode fast supports only relevance vector; use exact or auto`, { field: "mode" });
  }
  if (r.sections) {
    throw new Invalid("mode fast does not support sections; use exact or auto", { field: "mode" });
  }
  if (Object.values(r.filters).some((v) => v !== undefined)) {
    throw new Invalid("mode fast does not support kinds or filters; use exact or auto", { field: "mode" });
  }
  // The lift compares the best few by the whole formula: the search has no such step.
  if (r.lift && r.query) return { ...exact, reason: `mode fast, a version lift: ${exact.reason}` };
  const fast = state.fast;
  if (!fast) throw new Error("plan: mode fast needs the fast state (readFastState)");
  const declined = (why: string): ExactPlan => ({ ...exact, reason: `mode fast, ${why}: ${exact.reason}` });
  const what = r.query ? "vectors of the query's model" : "memories";
  if (fast.vectors < thresholds.minStream) {
    return declined(`stream under ${count(thresholds.minStream)} ${what} (MEMSTREAM_FAST_MIN_STREAM)`);
  }
  if (r.query && !fast.index) {
    throw new Invalid(
      `mode fast needs an HNSW index for model ${r.query.model} (${r.query.dimensions} dimensions); create it with npm run index:create`,
      { field: "mode" },
    );
  }
  if (fast.vectors < Math.ceil(thresholds.minShare * fast.indexed)) {
    return declined(
      `stream under ${thresholds.minShare * 100} % of the index's vectors (MEMSTREAM_FAST_MIN_SHARE)`,
    );
  }
  // The search has no time window: a default time filter is dropped (the answer says none applied).
  return {
    statement: "fast",
    reason: `mode fast: threshold search over the ${r.query ? "HNSW and " : ""}recency + importance indexes (${count(thresholds.minStream)}+ ${what})`,
    workers: false,
    index: fast.index,
    fallback: { ...exact, reason: `mode fast found no certain round: ${exact.reason}` },
  };
}

/**
 * The phased plan for a request in mode auto, or null when its ranking cannot be ranked in
 * phases: it needs a query vector and hybrid or contextual relevance (what the first phase
 * seeds from), the whole stream or a time window (filters and sections rank exactly), weights
 * ≥ 0, and the model's index state (retrieve reads it).
 */
export function phasedPlan(r: Omit<PlanRequest, "mode">, state: StreamState): PhasedPlan | null {
  const kind = r.lexical?.kind;
  if (!r.query || (kind !== "hybrid" && kind !== "contextual") || r.sections) return null;
  if (Object.values(r.filters).some((v) => v !== undefined)) return null;
  const w = r.weights;
  if (w.recency < 0 || w.importance < 0 || w.relevance < 0 || state.index === undefined) return null;
  // A small stream is ranked whole: every memory is about as many rows as the seeds and their
  // neighbours, and the full statement plans in a fraction of the time (docs/adr/0032).
  if (state.small) return null;
  const via = state.index ? "HNSW" : "a scan of the agent's vectors";
  const sizes = (state.rows ?? Number.POSITIVE_INFINITY) < PHASES_FULL_FROM ? SMALL_PHASE_SIZES : PHASE_SIZES;
  return {
    statement: "phased",
    reason: `relevance ${kind} in phases: seeds from the indexes (nearest by ${via}, BM25 over the GIN postings, the newest${kind === "contextual" ? ", their neighbours" : ""}), the formula on the seeds`,
    workers: false,
    index: state.index,
    sizes,
  };
}

/** The exact statement for a request, and why (what `plan` returns for mode exact). */
export function exactPlan(r: Omit<PlanRequest, "mode">, state: StreamState): ExactPlan {
  if (r.sections) {
    return { statement: "sections", reason: "sections: each ranks its own top k", workers: false };
  }
  const full = (reason: string, workers = false): ExactPlan => ({ statement: "full", reason, workers });
  if (narrowed(r)) return full("filters or a time window: every candidate scored");
  // The lift compares the formula's best few: the full statement's tail (statements/select.ts).
  if (r.lift && r.query)
    return full(`versions lifted (${r.lift}) among the best: every memory scored`, state.large);
  const kind = r.lexical?.kind ?? "vector";
  const w = r.weights;
  const negative = w.recency < 0 || w.importance < 0 || w.relevance < 0;
  // The fused statement pays only on large streams (docs/adr/0024).
  if ((kind === "hybrid" || kind === "contextual") && r.query && !negative && state.large) {
    return {
      statement: "fused",
      reason: `relevance ${kind} over a whole stream of ${count(WORKERS_MIN_STREAM)}+ memories: every memory's relevance (words through the GIN index), only memories that can reach the top k scored, parallel workers`,
      workers: true,
    };
  }
  if (r.lexical) {
    // BM25 and the neighbour window need every candidate; workers split the scans of a large stream.
    const fused = kind !== "lexical" && r.query !== null;
    if (fused && state.large) {
      return full(
        `relevance ${kind}: every memory scored, parallel workers (${count(WORKERS_MIN_STREAM)}+ memories)`,
        true,
      );
    }
    return full(`relevance ${kind}: every memory scored`);
  }
  if (!r.query) return full("no query vector: every memory scored");
  if (negative) return full("a negative weight: every memory scored");
  if (state.small) return full(`stream under ${count(MIN_STREAM)} memories: every memory scored`);
  // Workers always: the pass over the distances splits (the planner starts none for small streams).
  return {
    statement: "threshold",
    reason: `vector relevance over a whole stream of ${count(MIN_STREAM)}+ memories: only memories that can reach the top k scored`,
    workers: true,
  };
}

const count = (n: number) => n.toLocaleString("en-US");
