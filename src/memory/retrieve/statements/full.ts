import { type SQL, sql } from "drizzle-orm";
import { candidateCtes } from "./candidates";
import type { RankParams } from "./params";
import { scoreAndSelect, scoreLiftAndSelect } from "./select";

/**
 * The exact ranking as one SELECT: every candidate (filters, time window) with its raw
 * components → their bounds → scaled components → weighted sum → top k. Any relevance kind, any
 * weights. The touch is a second statement in the same transaction (see retrieve.ts): a
 * statement that modifies data never runs in parallel, and the scan is the expensive part.
 *
 * Rules for memories that are not fully enriched (documented in docs/api.md and OpenAPI; the
 * `missing` values of ranking/components.ts):
 * - importance not yet scored: the scaled importance is 0.5; min/max use scored memories only.
 * - no vector of the query's model: the scaled relevance is 0 (lowest); min/max use embedded ones.
 *   A pending memory embedded at retrieve time (`p.fresh`) counts as embedded.
 * - a component that is equal across the candidate set (incl. a single candidate) scales to 0.5.
 * The distance is computed once per candidate (materialized CTE), not once per window.
 */
export function fullRankQuery(p: RankParams): SQL {
  const { query, lift } = p;
  // Versions are lifted here only: the planner sends a request with a lift to this statement.
  const tail = lift && query ? scoreLiftAndSelect({ ...p, query, lift }) : scoreAndSelect(p);
  return sql`${candidateCtes(p)} ${tail}`;
}
