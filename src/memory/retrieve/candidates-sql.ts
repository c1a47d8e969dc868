import { and, type SQL, sql } from "drizzle-orm";
import { filterConditions } from "../filters";
import { narrowed, type RankParams, recencyOf, timeWindowSql } from "./ranking-sql";
import { relevanceSql } from "./relevance";

/**
 * `WITH … cand, b,` — every candidate passing the filters and the time window with its raw
 * recency, importance and relevance (`extra`: more columns, e.g. a section), and their bounds:
 * the head the full and the sectioned ranking share.
 */
export function candidateCtes(p: RankParams, extra: SQL = sql``): SQL {
  const filtered = and(...filterConditions(p.agentId, p.filters));
  const tw = timeWindowSql(p.timeWindow, filtered);
  const where = tw.cond ? and(filtered, tw.cond) : filtered;
  // No filter and no window: the candidates are the agent's whole stream (relevance reads it by table).
  const rel = relevanceSql(p.agentId, p.query, p.lexical, where, p.fresh, !narrowed(p));
  return sql`
    WITH ${tw.cte} ${rel.ctes} cand AS MATERIALIZED (
      SELECT memories.id ${extra},
        ${recencyOf(p, sql`memories.last_accessed_at`)} AS rec,
        memories.importance::float8 AS imp,
        ${rel.expr} AS rel
      ${rel.source ? sql`FROM ${rel.source}` : sql`FROM memories ${rel.join} WHERE ${where}`}
    ),
    b AS (
      SELECT min(rec) AS rlo, max(rec) AS rhi, min(imp) AS ilo, max(imp) AS ihi, min(rel) AS vlo, max(rel) AS vhi,
        count(*) AS n FROM cand
    ),`;
}
