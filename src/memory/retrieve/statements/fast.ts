import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { type HnswIndex, hnswExpression, literal } from "../hnsw-index";
import { beatsSql, listedScoreSql, PRUNE_EPS, unseenBoundSql } from "../ranking/bounds";
import { importanceSql, recencySql } from "../ranking/components";
import { cosineSql, freshSql, negatedVector } from "../ranking/relevance/vector";
import { streamBoundsSql } from "../ranking/scale";
import type { RankParams } from "./params";
import { scoreAndSelect } from "./select";

/** How far down each sorted list one round reads: HNSW by relevance, and by recency + importance. */
export type Depth = { relevance: number; recImp: number };

/** Importance is an integer in [1, 10] (memories_importance_check), or NULL while pending. */
const IMPORTANCE_MIN = 1;
const IMPORTANCE_MAX = 10;

/**
 * The first round's depths; each further round doubles both. 200 (and 800): a first round of 100
 * was almost never certain at 100k memories, so it was paid for and followed by a second one;
 * 200/800 usually settles in one round (docs/adr/0020).
 */
export function firstDepth(k: number): Depth {
  const n = Math.max(200, 10 * k);
  return { relevance: n, recImp: 4 * n };
}

/**
 * Past this depth a round gives up and the caller ranks exactly: pgvector's iterative scan stops
 * at hnsw.max_scan_tuples (20,000 by default), and rounds this deep cost more than the exact scan.
 */
export const MAX_DEPTH = 12_800;

/**
 * One round of the fast ranking, a threshold algorithm (Fagin's TA) over two sorted lists:
 * - relevance: the HNSW index of the query's model (iterative scan in strict order, agent filter);
 * - b, the listed score w_r·recency' + w_i·importance' (ranking/bounds.ts) with the exact bounds:
 *   for each importance level (1–10 and pending) the most recent memories by the btree
 *   `(agent_id, importance, last_accessed_at, id)`, merged by b. Within a level a newer memory
 *   never has a lower b, so the first `recImp` of the merge are exactly the top `recImp` by b.
 * Every memory seen in either list is scored exactly (the same SQL as the exact query). A memory
 * seen in neither has relevance ≤ the last HNSW result's and b ≤ the last b-list entry's, so it
 * scores at most τ = b(last) + w_v·rel'(last) (ranking/bounds.ts); the round's answer is the
 * ranking when the k-th score beats τ (`certain`), else the caller reads deeper (`fastRank`).
 * Bounds: recency and importance min/max from btree endpoints (exact); relevance max = the best
 * seen (exact when HNSW finds the nearest vector); relevance min = the least seen, where the
 * nearest vector to the negated query (cos(x, −q) = −cos(x, q)) by HNSW is always seen (a
 * candidate, scored like every other): an estimate, the one part that is not exact by
 * construction (docs/adr/0020). Its relevance is computed as every candidate's, not from the
 * negated distance: (1 + c) − 1 and 1 − (1 − c) round differently, and a stream whose
 * relevance is all equal scaled to 1 instead of 0.5 (the agreement test found it).
 */
export function fastRankQuery(p: RankParams, index: HnswIndex | null, depth: Depth): SQL {
  const agent = p.agentId;
  const w = p.weights;
  const q = p.query && index ? { ...p.query, index } : null;
  // Memories embedded at retrieve time (no stored vector yet) are candidates with their fresh vector.
  const fresh = freshSql(q ? (p.fresh ?? []) : [], "m.id");
  const relevance = q ? cosineSql(fresh.embedding, q) : sql`NULL::float8`;
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
  const hnsw = q
    ? sql`rel_list AS MATERIALIZED (
        SELECT e.memory_id AS id, ${expr} <=> ${q.vector}${cast} AS dist FROM memory_embeddings e
        WHERE e.agent_id = ${agent} AND ${onModel}
        ORDER BY ${expr} <=> ${q.vector}${cast} LIMIT ${depth.relevance}
      ),
      far AS MATERIALIZED (
        SELECT e.memory_id AS id FROM memory_embeddings e
        WHERE e.agent_id = ${agent} AND ${onModel}
        ORDER BY ${expr} <=> ${negatedVector(q.vector)}${cast} LIMIT 1
      ),`
    : sql`rel_list AS (SELECT NULL::text AS id, NULL::float8 AS dist WHERE false), far AS (SELECT NULL::text AS id WHERE false),`;
  const rec = (column: SQL) => recencySql(p, column);
  const level = (cond: SQL) =>
    sql`SELECT id, importance, last_accessed_at FROM memories WHERE agent_id = ${agent} AND ${cond}
        ORDER BY last_accessed_at DESC LIMIT ${depth.recImp}`;
  // The relevance of the last (least relevant) HNSW result; NULL without a relevance list.
  const lastRel = sql`(SELECT 1 - max(dist) FROM rel_list)`;
  return sql`
    WITH ${fresh.cte} bnd AS MATERIALIZED (SELECT ${streamBoundsSql(p, agent)}),
    ${hnsw}
    blist AS MATERIALIZED (
      SELECT x.id, ${listedScoreSql(w, { recency: rec(sql`x.last_accessed_at`), importance: importanceSql(sql`x.importance`) }, "bnd")} AS b
      FROM (
        SELECT l.* FROM generate_series(${IMPORTANCE_MIN}::int, ${IMPORTANCE_MAX}::int) v(imp)
          CROSS JOIN LATERAL (${level(sql`importance = v.imp`)}) l
        UNION ALL (${level(sql`importance IS NULL`)})
      ) x CROSS JOIN bnd
      ORDER BY b DESC LIMIT ${depth.recImp}
    ),
    ids AS (SELECT id FROM rel_list UNION SELECT id FROM blist UNION SELECT id FROM far
      ${p.fresh?.length && q ? sql`UNION SELECT id FROM fresh` : sql``}),
    cand AS MATERIALIZED (
      SELECT m.id, ${rec(sql`m.last_accessed_at`)} AS rec, ${importanceSql(sql`m.importance`)} AS imp, ${relevance} AS rel
      FROM ids JOIN memories m ON m.agent_id = ${agent} AND m.id = ids.id ${join}
    ),
    b AS MATERIALIZED (
      SELECT bnd.*, (SELECT min(rel) FROM cand) AS rel_lo,
        (SELECT max(rel) FROM cand) AS rel_hi, (SELECT count(*) FROM cand) AS n
      FROM bnd
    ),
    -- τ: the best score a memory in neither list can have; NULL when the b list holds every memory.
    tau AS MATERIALIZED (
      SELECT CASE WHEN (SELECT count(*) FROM blist) < ${depth.recImp} THEN NULL::float8
        ELSE ${unseenBoundSql(w, sql`(SELECT min(blist.b) FROM blist)`, lastRel, "b")} END AS tau
      FROM b
    ),
    -- τ assumes HNSW returned every vector more relevant than its last result. A memory seen
    -- through the b list that is more relevant, yet not returned, shows the walk missed some
    -- (it can settle in a wrong region): then the round is not trusted.
    missed AS MATERIALIZED (
      SELECT (SELECT count(*) FROM rel_list) = ${depth.relevance} AND EXISTS (
        SELECT 1 FROM cand WHERE cand.rel > ${lastRel} + ${PRUNE_EPS}::float8
          AND NOT EXISTS (SELECT 1 FROM rel_list WHERE rel_list.id = cand.id)
          ${p.fresh?.length && q ? sql`AND NOT EXISTS (SELECT 1 FROM fresh WHERE fresh.id = cand.id)` : sql``}
      ) AS missed
    ),
    ${scoreAndSelect(
      p,
      sql`, (SELECT tau FROM tau) AS tau, (SELECT missed FROM missed) AS missed,
        (SELECT tau IS NULL OR ((SELECT count(*) FROM top) = ${p.k}
          AND ${beatsSql(sql`(SELECT min(score) FROM top)`, sql`tau`)}) FROM tau) AS certain`,
    )}`;
}

type FastRow = { certain: boolean; missed: boolean };

/**
 * Runs rounds of `fastRankQuery`, doubling both depths, until a round is certain; returns its
 * rows and how many rounds it took, or null when depth `MAX_DEPTH` is still not enough or HNSW
 * was seen to skip a vector (the caller then ranks exactly).
 */
export async function fastRank<R extends FastRow>(
  tx: Pick<Db, "execute">,
  p: RankParams,
  index: HnswIndex | null,
  depth = firstDepth(p.k),
): Promise<{ rows: R[]; rounds: number } | null> {
  let rounds = 0;
  for (let d = depth; d.relevance <= MAX_DEPTH; d = { relevance: 2 * d.relevance, recImp: 2 * d.recImp }) {
    rounds++;
    if (index) await setEfSearch(tx, d.relevance);
    const rows = await queryRows<R>(tx, fastRankQuery(p, index, d));
    // HNSW skipped a vector it should have returned: reading deeper would trust it again.
    if (rows[0]?.missed) return null;
    if (rows.length === 0 || rows[0]?.certain) return { rows, rounds };
  }
  return null;
}

/**
 * Session settings for the fast query, local to its transaction. The planner cannot cost a
 * filtered HNSW scan well and, for a stream that is a large share of the table, prefers sorting
 * every distance, which is the exact scan the fast path exists to avoid; so sorts and sequential
 * scans are priced out and every list comes from its index, and the seen memories are joined by
 * primary key. Those penalties would make the plan look expensive enough to JIT-compile
 * (~0.4 s), so JIT is off too. The HNSW scan runs in strict order: τ needs the last result to
 * be the least relevant one returned.
 */
export async function useIndexPaths(tx: Pick<Db, "execute">): Promise<void> {
  await tx.execute(
    sql`SELECT set_config('jit', 'off', true), set_config('enable_sort', 'off', true), set_config('enable_seqscan', 'off', true), set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true), set_config('hnsw.iterative_scan', 'strict_order', true)`,
  );
}

/**
 * The HNSW candidate queue (hnsw.ef_search) of every round. A smaller queue lets the walk settle
 * in a wrong region and skip vectors above the last one returned, which τ assumes were all
 * returned; a larger one costs more than the exact scan (docs/adr/0020).
 */
const EF_SEARCH = 400;

/** ef_search for a round: at least EF_SEARCH, the depth up to pgvector's maximum (1,000). */
async function setEfSearch(tx: Pick<Db, "execute">, depth: number): Promise<void> {
  const ef = Math.min(1_000, Math.max(EF_SEARCH, depth));
  await tx.execute(sql`SELECT set_config('hnsw.ef_search', ${String(ef)}, true)`);
}
