import { and, type SQL, sql } from "drizzle-orm";
import { filterConditions } from "../filters";
import { exactTopKQuery, topKApplies } from "./exact-topk";
import { type RankParams, recencyOf, scoreAndSelect, timeWindowSql } from "./ranking-sql";
import { relevanceSql } from "./relevance";
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
  return topKApplies(p) ? exactTopKQuery(p) : fullRankQuery(p);
}

/** Every candidate joined with its vector and scored (filters, time window, lexical relevance, any weights). */
export function fullRankQuery(p: RankParams): SQL {
  const filtered = and(...filterConditions(p.agentId, p.filters));
  const tw = timeWindowSql(p.timeWindow, filtered);
  const where = tw.cond ? and(filtered, tw.cond) : filtered;
  const rel = relevanceSql(p.agentId, p.query, p.lexical, where, p.fresh);
  return sql`
    WITH ${tw.cte} ${rel.ctes} cand AS MATERIALIZED (
      SELECT memories.id,
        ${recencyOf(p, sql`memories.last_accessed_at`)} AS rec,
        memories.importance::float8 AS imp,
        ${rel.expr} AS rel
      FROM memories ${rel.join}
      WHERE ${where}
    ),
    b AS (
      SELECT min(rec) AS rlo, max(rec) AS rhi, min(imp) AS ilo, max(imp) AS ihi, min(rel) AS vlo, max(rel) AS vhi,
        count(*) AS n FROM cand
    ),
    ${scoreAndSelect(p)}`;
}
