import { type SQL, sql } from "drizzle-orm";
import { candidateCtes } from "./candidates-sql";
import { exactTopKQuery, topKApplies } from "./exact-topk";
import { narrowed, type RankParams, scoreAndSelect } from "./ranking-sql";
import { sectionRankQuery } from "./sections-sql";

/**
 * The exact Generative Agents ranking as one SELECT: candidates → min/max → scaled components
 * → top k. The touch is a second statement in the same transaction (see retrieve.ts): a
 * statement that modifies data never runs in parallel, and the scan is the expensive part.
 *
 * Rules for memories that are not fully enriched (documented in the README and OpenAPI):
 * - importance not yet scored: the scaled importance is 0.5; min/max use scored memories only.
 * - no vector of the query's model: the scaled relevance is 0 (lowest); min/max use embedded ones.
 *   A pending memory embedded at retrieve time (`p.fresh`) counts as embedded.
 * - a component that is equal across the candidate set (incl. a single candidate) scales to 0.5.
 * The distance is computed once per candidate (materialized CTE), not once per window.
 */
export function exactRankQuery(p: RankParams): SQL {
  if (p.sections) return sectionRankQuery({ ...p, sections: p.sections });
  return rankedByThreshold(p) ? exactTopKQuery(p) : fullRankQuery(p);
}

/** Whether `exactRankQuery` answers with the threshold statement (exact-topk.ts) for `p`. */
export function rankedByThreshold(p: RankParams): boolean {
  return !p.sections && topKApplies(p);
}

/**
 * Streams of at least this many memories (as the planner's statistics estimate them; agent-state.ts)
 * get parallel workers for the whole-stream fused relevance statement. That statement scans both
 * tables in full (BM25 and the neighbour window need every memory); workers split the two scans.
 * Measured on its own, paired, identical rankings (docs/performance.md): 0.82× the time at 99k
 * memories, 0.93× at 50k, 1.01× at 25k and 1.20× at 11k, where starting workers costs more than
 * they save.
 */
export const WORKERS_MIN_STREAM = 50_000;

/**
 * Whether `exactRankQuery(p)` runs with parallel workers (useExactScan, retrieve.ts): the threshold
 * statement always (its pass over the distances splits; the planner starts none for small
 * streams), and the fused relevance statement over a whole stream the statistics call large.
 */
export function exactUsesWorkers(p: RankParams, largeStream: boolean): boolean {
  if (rankedByThreshold(p)) return true;
  const fused = p.lexical !== undefined && p.lexical.kind !== "lexical" && p.query !== null;
  return fused && largeStream && !p.sections && !narrowed(p);
}

/** Every candidate joined with its vector and scored (filters, time window, lexical relevance, any weights). */
export function fullRankQuery(p: RankParams): SQL {
  return sql`${candidateCtes(p)} ${scoreAndSelect(p)}`;
}
