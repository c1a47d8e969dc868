import { type SQL, sql } from "drizzle-orm";
import { candidateCtes } from "./candidates-sql";
import { exactTopKQuery, topKApplies } from "./exact-topk";
import { type RankParams, scoreAndSelect } from "./ranking-sql";
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

/** Every candidate joined with its vector and scored (filters, time window, lexical relevance, any weights). */
export function fullRankQuery(p: RankParams): SQL {
  return sql`${candidateCtes(p)} ${scoreAndSelect(p)}`;
}
