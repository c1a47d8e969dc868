import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type HnswIndex, hnswExpression, literal } from "./hnsw-index";
import { type RankParams, recencyOf, scoreAndSelect } from "./ranking-sql";
import { freshSql } from "./relevance";

export type CandidateSizes = { relevance: number; recency: number; importance: number };

/**
 * How many candidates each source gives for a top k. Relevance takes twice as many, still
 * searched with ef_search N (the iterative scan goes on past ef_search): on clustered data the
 * exact top k is mostly memories of the query's topic, and a topic holds more than 100 of a
 * large agent's memories. At 1M (bench/fast-path.ts, 20 queries) recall@10 went 0.90 → 0.95;
 * ef_search 2N gave 0.97 but cost 1.7× in the full bench (cold HNSW pages after exact scans).
 */
export function candidateSizes(k: number): CandidateSizes {
  const n = candidatesPerSource(k);
  return { relevance: 2 * n, recency: n, importance: n };
}

/** Importance is an integer in [1, 10] (memories_importance_check), or NULL while pending. */
const IMPORTANCE_MIN = 1;
const IMPORTANCE_MAX = 10;

/** Candidates taken from each ordered source (relevance, recency, importance). */
export function candidatesPerSource(k: number): number {
  return Math.max(100, 5 * k);
}

/**
 * The fast ranking for large streams (no filters): a candidate set from three indexes, each
 * scored exactly with the same rules as the exact query.
 * - relevance: the HNSW index of the query's model (iterative scan with the agent filter);
 * - recency: the newest last accesses (btree);
 * - importance: the best by weighted, scaled recency + importance, from each importance level's
 *   most recent memories (so ties within a level go to the newest, not to index order).
 * Bounds: recency and importance min/max come from btree index endpoints over the whole stream
 * (exact). Relevance max is the best candidate's (exact when HNSW finds the nearest vector);
 * relevance min is estimated by an HNSW search for the *negated* query (its nearest vector is
 * the query's farthest: cos(x, −q) = −cos(x, q)), lowered to the candidates' own minimum.
 * A memory outside all three candidate lists is never returned (see docs/adr/0003).
 */
export function fastRankQuery(p: RankParams, index: HnswIndex | null, sizes = candidateSizes(p.k)): SQL {
  const n = sizes.relevance;
  const agent = p.agentId;
  const q = p.query && index ? { ...p.query, index } : null;
  // Memories embedded at retrieve time (no stored vector yet) are candidates with their fresh vector.
  const fresh = freshSql(q ? (p.fresh ?? []) : [], "m.id");
  const relevance = q ? sql`1 - (${fresh.embedding} <=> ${q.vector}::vector)` : sql`NULL::float8`;
  const join = q
    ? sql`LEFT JOIN memory_embeddings e ON e.agent_id = ${agent} AND e.memory_id = m.id AND e.model = ${q.model} AND e.dimensions = ${q.dimensions} ${fresh.join}`
    : sql``;
  // Model and dimension are inlined: with bind parameters a generic plan cannot prove the
  // partial index's predicate, and would fall back to scanning the agent's vectors.
  const expr = q ? sql.raw(hnswExpression(q.index, "e.embedding")) : sql``;
  const cast = q ? sql.raw(`::${q.index.storage}(${Math.trunc(q.dimensions)})`) : sql``;
  const onModel = q
    ? sql.raw(`e.model = ${literal(q.model)} AND e.dimensions = ${Math.trunc(q.dimensions)}`)
    : sql``;
  const negated = q ? negate(q.vector) : "";
  const hnsw = q
    ? sql`rel_ids AS MATERIALIZED (
        SELECT e.memory_id AS id FROM memory_embeddings e
        WHERE e.agent_id = ${agent} AND ${onModel}
        ORDER BY ${expr} <=> ${q.vector}${cast} LIMIT ${n}
      ),
      far AS MATERIALIZED (
        SELECT ${expr} <=> ${negated}${cast} AS d FROM memory_embeddings e
        WHERE e.agent_id = ${agent} AND ${onModel}
        ORDER BY ${expr} <=> ${negated}${cast} LIMIT 1
      ),`
    : sql`rel_ids AS (SELECT NULL::text AS id WHERE false), far AS (SELECT NULL::float8 AS d WHERE false),`;
  const rec = (column: SQL) => recencyOf(p, column);
  // Weighted, scaled recency + importance with the exact bounds (pending importance = 0.5).
  const recImp = sql`${p.weights.recency}::float8 * CASE WHEN bnd.rhi > bnd.rlo THEN (${rec(sql`x.last_accessed_at`)} - bnd.rlo) / (bnd.rhi - bnd.rlo) ELSE 0.5 END
    + ${p.weights.importance}::float8 * CASE WHEN x.importance IS NULL THEN 0.5 WHEN bnd.ihi > bnd.ilo THEN (x.importance - bnd.ilo) / (bnd.ihi - bnd.ilo) ELSE 0.5 END`;
  const level = (cond: SQL) =>
    sql`SELECT id, importance, last_accessed_at FROM memories WHERE agent_id = ${agent} AND ${cond}
        ORDER BY last_accessed_at DESC LIMIT ${sizes.importance}`;
  return sql`
    WITH ${fresh.cte} bnd AS MATERIALIZED (
      SELECT ${rec(sql`(SELECT min(last_accessed_at) FROM memories WHERE agent_id = ${agent})`)} AS rlo,
        ${rec(sql`(SELECT max(last_accessed_at) FROM memories WHERE agent_id = ${agent})`)} AS rhi,
        (SELECT min(importance) FROM memories WHERE agent_id = ${agent})::float8 AS ilo,
        (SELECT max(importance) FROM memories WHERE agent_id = ${agent})::float8 AS ihi
    ),
    ${hnsw}
    recent_ids AS (SELECT id FROM memories WHERE agent_id = ${agent} ORDER BY last_accessed_at DESC NULLS LAST LIMIT ${sizes.recency}),
    important_ids AS MATERIALIZED (
      SELECT x.id FROM generate_series(${IMPORTANCE_MIN}::int, ${IMPORTANCE_MAX}::int) v(imp)
        CROSS JOIN LATERAL (${level(sql`importance = v.imp`)}) x CROSS JOIN bnd
      ORDER BY ${recImp} DESC LIMIT ${sizes.importance}
    ),
    ids AS (SELECT id FROM rel_ids UNION SELECT id FROM recent_ids UNION SELECT id FROM important_ids
      ${p.fresh?.length && q ? sql`UNION SELECT id FROM fresh` : sql``}),
    cand AS MATERIALIZED (
      SELECT m.id, ${rec(sql`m.last_accessed_at`)} AS rec, m.importance::float8 AS imp, ${relevance} AS rel
      FROM ids JOIN memories m ON m.agent_id = ${agent} AND m.id = ids.id ${join}
    ),
    b AS MATERIALIZED (
      SELECT bnd.rlo, bnd.rhi, bnd.ilo, bnd.ihi,
        least((SELECT min(rel) FROM cand), (SELECT d - 1 FROM far)) AS vlo,
        (SELECT max(rel) FROM cand) AS vhi, (SELECT count(*) FROM cand) AS n
      FROM bnd
    ),
    ${scoreAndSelect(p)}`;
}

/**
 * Session settings for the fast query, local to its transaction. The planner cannot cost a
 * filtered HNSW scan well and, for a stream that is a large share of the table, prefers sorting
 * every distance, which is the exact scan the fast path exists to avoid; so sorts and sequential
 * scans are priced out and every candidate list comes from its index,
 * and the few hundred candidates are joined by primary key. Those penalties would make
 * the plan look expensive enough to JIT-compile (~0.4 s), so JIT is off too.
 */
export async function useIndexPaths(tx: Pick<Db, "execute">, efSearch: number | null): Promise<void> {
  const hnsw = efSearch
    ? sql`, set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', ${String(efSearch)}, true)`
    : sql``;
  await tx.execute(
    sql`SELECT set_config('jit', 'off', true), set_config('enable_sort', 'off', true), set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true) ${hnsw}`,
  );
}

/** The negated vector in pgvector text form. */
function negate(vector: string): string {
  const xs = vector.slice(1, -1).split(",");
  return `[${xs.map((x) => (x.startsWith("-") ? x.slice(1) : `-${x}`)).join(",")}]`;
}
