import { and, type SQL, sql } from "drizzle-orm";
import { accessAsOfSql } from "../../as-of";
import { filterConditions } from "../../filters";
import { importanceSql, recencySql } from "../ranking/components";
import { relevanceSql } from "../ranking/relevance/relevance";
import { boundsAggregateSql } from "../ranking/scale";
import { narrowed, type RankParams } from "./params";

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
  // As of a time, the last access known to precede it; fused relevance's rows carry it as theirs.
  const access = p.asOf ? accessAsOfSql(p.asOf) : sql`memories.last_accessed_at`;
  const rel = relevanceSql(p.agentId, p.query, p.lexical, where, p.fresh, !narrowed(p), access);
  return sql`
    WITH ${tw.cte} ${rel.ctes} cand AS MATERIALIZED (
      SELECT memories.id ${extra},
        ${recencySql(p, rel.source ? sql`memories.last_accessed_at` : access)} AS rec,
        ${importanceSql(sql`memories.importance`)} AS imp,
        ${rel.expr} AS rel
      ${rel.source ? sql`FROM ${rel.source}` : sql`FROM memories ${rel.join} WHERE ${where}`}
    ),
    b AS (SELECT ${boundsAggregateSql(p.floors)}, count(*) AS n FROM cand),`;
}

/**
 * The time window as a `tw` CTE and a condition on `memories`: inside the window, or anywhere
 * when no memory passing `where` is inside (a question about a quiet week still gets an answer).
 * Both are evaluated in the ranking statement itself; `tw` is computed once (an InitPlan).
 */
export function timeWindowSql(
  window: RankParams["timeWindow"],
  where: SQL | undefined,
): { cte: SQL; cond: SQL | undefined } {
  if (!window) return { cte: sql``, cond: undefined };
  return {
    cte: sql`tw AS (SELECT EXISTS (SELECT 1 FROM memories WHERE ${where} AND ${insideSql(window, "memories")}) AS hit),`,
    cond: windowCondSql(window, "memories"),
  };
}

/** The condition timeWindowSql gives, on the memories row `alias` (after its `tw` CTE). */
export const windowCondSql = (window: { start: Date; end: Date }, alias: string): SQL =>
  sql`(NOT (SELECT hit FROM tw) OR (${insideSql(window, alias)}))`;

const insideSql = (window: { start: Date; end: Date }, alias: string): SQL => {
  const at = sql.raw(`${alias}.created_at`);
  return sql`${at} >= ${window.start.toISOString()}::timestamptz AND ${at} < ${window.end.toISOString()}::timestamptz`;
};
