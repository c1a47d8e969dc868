import { type SQL, sql } from "drizzle-orm";
import { beatsSql, canReachSql, listedScoreSql, relevanceCutSql, scoreOfRawSql } from "../ranking/bounds";
import { importanceSql, recencySql } from "../ranking/components";
import { cosineSql, freshSql } from "../ranking/relevance/vector";
import { streamBoundsSql } from "../ranking/scale";
import type { RankParams } from "./params";
import { scoreAndSelect } from "./select";

/**
 * Memories in the recency + importance list (and per importance level): shorter lists loosen the
 * bound and let more candidates through, longer ones cost their own sort; 100 was the fastest
 * (docs/adr/0020). Results are the same at every size (the bound adapts).
 */
export const RECENT_IMPORTANT = 100;
/** Memories taken by relevance alone to seed the k-th score. */
export const MOST_RELEVANT = 100;

/**
 * The exact ranking of a whole stream by vector relevance (same bounds, scores and tie order as
 * `fullRankQuery`) without joining every memory to its vector. Score = w_v·rel' + b, where b is
 * the listed score w_r·rec' + w_i·imp' (ranking/bounds.ts). Steps:
 * 1. `d`: every distance of the agent's vectors, once (the floor), and the exact bounds: rel
 *    min/max from `d`, recency and importance from btree endpoints (ranking/components.ts).
 * 2. `blist`: the top memories by b (each importance level's most recent, including pending
 *    importance); b_M = the last one's b. Any memory outside the list has b ≤ b_M.
 * 3. kth0 = the k-th best exact score in the list (its vectors by primary key): a lower bound of
 *    the true k-th score. A memory outside the list can reach the top k only if
 *    w_v·rel' + b_M ≥ kth0: those are found in one pass over `d` (`over0`).
 * 4. kth = the k-th best among the list and over0's most relevant: a tighter lower bound. The
 *    candidates are the list and the memories of over0 with w_v·rel' + b_M ≥ kth, scored
 *    exactly. A memory with no vector scores at most b_M; when b_M is not below kth the
 *    statement ranks every memory instead (`pruned` false on every row).
 * So only a few hundred memories are joined with `memories` instead of all of them, and the
 * distances are read twice after the floor's pass: for their bounds and for over0. A top-N sort
 * of every distance by relevance (the seeds before) cost more than both (docs/adr/0020).
 * Needs a query vector and weights ≥ 0; the planner (plan.ts) sends it only whole streams.
 */
export function thresholdRankQuery(
  p: RankParams,
  { listSize = RECENT_IMPORTANT, mostRelevant = MOST_RELEVANT } = {},
): SQL {
  const q = p.query;
  if (!q) throw new Error("thresholdRankQuery needs a query vector");
  const agent = p.agentId;
  const fresh = p.fresh ?? [];
  // The agent's vectors of the query's model (stored ones, and `fresh`).
  const stored = (memoryId: SQL) =>
    sql`FROM memory_embeddings e WHERE e.agent_id = ${agent} AND e.memory_id = ${memoryId}
      AND e.model = ${q.model} AND e.dimensions = ${q.dimensions}`;
  // Vectors embedded at retrieve time count for memories that still have none stored (as in fullRankQuery).
  const freshRows =
    fresh.length === 0
      ? sql``
      : sql`UNION ALL SELECT f.id, ${cosineSql(sql`f.embedding`, q)} FROM fresh f
        WHERE NOT EXISTS (SELECT 1 ${stored(sql`f.id`)})`;
  const freshRel = (memoryId: SQL) =>
    fresh.length === 0
      ? sql``
      : sql`, (SELECT ${cosineSql(sql`f.embedding`, q)} FROM fresh f WHERE f.id = ${memoryId})`;
  return thresholdOver(
    p,
    {
      head: freshSql(fresh, "").cte,
      d: sql`SELECT e.memory_id AS id, ${cosineSql(sql`e.embedding`, q)} AS rel
      FROM memory_embeddings e
      WHERE e.agent_id = ${agent} AND e.model = ${q.model} AND e.dimensions = ${q.dimensions}
      ${freshRows}`,
      // The list's relevance by primary-key lookups of its vectors (the same distance as in d).
      listRel: {
        join: sql`LEFT JOIN LATERAL (SELECT ${cosineSql(sql`e.embedding`, q)} AS rel ${stored(sql`blist.id`)} OFFSET 0) v ON true`,
        expr: sql`coalesce(v.rel ${freshRel(sql`blist.id`)})`,
      },
      complete: false,
    },
    { listSize, mostRelevant },
  );
}

/**
 * Where a threshold statement's relevance comes from:
 * - `head`: CTEs before `d` (each ending with a comma);
 * - `d`: rows (id, rel), the raw relevance of every memory that has one (the statement reads it
 *   twice after its bounds: for the list's seeds' bound and for the memories that can pass it);
 * - `listRel`: how the recency + importance list (`blist`) gets its memories' relevance;
 * - `complete`: every memory of the stream has a row in `d`, so no memory is left whose score
 *   is only bounded by the list (vector relevance: memories without a vector of the model);
 * - `carries`: `d` also has each memory's `last_accessed_at` and `importance`, read in the same
 *   pass as its relevance, so candidates are scored from `d`'s rows instead of a primary-key
 *   probe of `memories` each.
 */
export type ThresholdSource = {
  head: SQL;
  d: SQL;
  listRel: { join: SQL; expr: SQL };
  complete: boolean;
  carries?: boolean;
};

/** The threshold statement over any relevance source (the steps above). */
export function thresholdOver(
  p: RankParams,
  src: ThresholdSource,
  { listSize = RECENT_IMPORTANT, mostRelevant = MOST_RELEVANT } = {},
): SQL {
  const agent = p.agentId;
  const w = p.weights;
  const rec = (column: SQL) => recencySql(p, column);
  const bm = sql`(SELECT b_m FROM bm)`;
  // The k-th best exact score among the rows of `cte` (id, rec, imp, rel); -Infinity if fewer.
  const kthOf = (cte: string) => {
    const col = (c: string) => sql.raw(`${cte}.${c}`);
    return sql`coalesce((
        SELECT ${scoreOfRawSql(w, { recency: col("rec"), importance: col("imp"), relevance: col("rel") }, "bnd")}
        FROM ${sql.raw(cte)} CROSS JOIN bnd
        ORDER BY 1 DESC OFFSET ${p.k - 1} LIMIT 1), '-Infinity'::float8)`;
  };
  const level = (cond: SQL) =>
    sql`SELECT id, ${importanceSql(sql`importance`)} AS imp, ${rec(sql`last_accessed_at`)} AS rec FROM memories
        WHERE agent_id = ${agent} AND ${cond} ORDER BY last_accessed_at DESC LIMIT ${listSize}`;
  // A candidate's memory row `m` (id, last_accessed_at, importance): `alias`'s own columns when
  // `d` carries them, else a primary-key probe.
  const probe = (alias: string) =>
    src.carries
      ? sql.raw(`CROSS JOIN LATERAL (SELECT ${alias}.id, ${alias}.last_accessed_at, ${alias}.importance) m`)
      : sql`CROSS JOIN LATERAL (SELECT id, last_accessed_at, importance FROM memories
          WHERE agent_id = ${agent} AND id = ${sql.raw(`${alias}.id`)} OFFSET 0) m`;
  const carried = sql.raw(src.carries ? ", last_accessed_at, importance" : "");
  return sql`
    WITH ${src.head} d AS MATERIALIZED (${src.d}
    ),
    -- One pass over the distances for both relevance bounds and the count.
    dagg AS MATERIALIZED (SELECT min(rel) AS rel_lo, max(rel) AS rel_hi, count(*) AS n FROM d),
    bnd AS MATERIALIZED (SELECT ${streamBoundsSql(p, agent)}, dagg.rel_lo, dagg.rel_hi FROM dagg),
    blist AS MATERIALIZED (
      SELECT x.id, x.rec, x.imp, ${listedScoreSql(w, { recency: sql`x.rec`, importance: sql`x.imp` }, "bnd")} AS b
      FROM (
        SELECT l.* FROM generate_series(1, 10) v(imp) CROSS JOIN LATERAL (${level(sql`importance = v.imp`)}) l
        UNION ALL (${level(sql`importance IS NULL`)})
      ) x CROSS JOIN bnd
      ORDER BY b DESC LIMIT ${listSize}
    ),
    bm AS (
      SELECT CASE WHEN count(*) >= ${listSize} THEN min(b) ELSE '-Infinity'::float8 END AS b_m FROM blist
    ),
    -- The list with its relevance, and kth0: the k-th best exact score among it, a first lower
    -- bound of the true k-th.
    bseed AS MATERIALIZED (
      SELECT blist.id, blist.rec, blist.imp, ${src.listRel.expr} AS rel FROM blist ${src.listRel.join}
    ),
    kth0 AS MATERIALIZED (SELECT ${kthOf("bseed")} AS kth),
    -- The relevance a memory outside the list needs to reach kth0 (ranking/bounds.ts).
    cut0 AS MATERIALIZED (
      SELECT ${relevanceCutSql(w, sql`bm.b_m`, sql`kth0.kth`, "bnd")} AS rel FROM kth0, bm, bnd
    ),
    -- Every memory outside the list that could beat kth0, in one pass over the distances (one
    -- comparison each). The true k-th score is at least kth0, so whatever can still reach the
    -- top k is in here. OFFSET 0: the bound is evaluated in the pass, not after a join.
    over0 AS MATERIALIZED (
      SELECT id, rel ${carried} FROM d WHERE d.rel >= (SELECT rel FROM cut0) OFFSET 0
    ),
    -- The seeds: the list and the most relevant of over0 (usually a few hundred rows to sort,
    -- not the whole stream), whose scores raise the bound. They stay candidates.
    seed AS MATERIALIZED (
      SELECT s.id, s.rec, s.imp, s.rel FROM (
        SELECT id, rec, imp, rel FROM bseed
        UNION
        SELECT m.id, ${rec(sql`m.last_accessed_at`)}, ${importanceSql(sql`m.importance`)}, r.rel
        FROM (SELECT id, rel ${carried} FROM over0 ORDER BY rel DESC LIMIT ${mostRelevant}) r
        ${probe("r")}
      ) s
    ),
    kth AS MATERIALIZED (SELECT ${kthOf("seed")} AS kth),
    -- Whether no memory without a vector can reach the k-th score; else every memory is ranked.
    g AS MATERIALIZED (SELECT ${src.complete ? sql`true` : beatsSql(sql`kth.kth`, sql`bm.b_m`)} AS certain FROM kth, bm),
    -- Memories outside the seeds that can still reach the top k, with their relevance.
    more AS MATERIALIZED (
      SELECT over0.id, over0.rel ${sql.raw(src.carries ? ", over0.last_accessed_at, over0.importance" : "")} FROM over0 CROSS JOIN bnd
      WHERE (SELECT certain FROM g) AND ${canReachSql(w, bm, sql`over0.rel`, sql`(SELECT kth FROM kth)`, "bnd")}
        AND NOT EXISTS (SELECT 1 FROM seed WHERE seed.id = over0.id)
    ),
    cand AS MATERIALIZED (
      SELECT id, rec, imp, rel FROM seed WHERE (SELECT certain FROM g)
      UNION ALL
      SELECT m.id, ${rec(sql`m.last_accessed_at`)}, ${importanceSql(sql`m.importance`)}, more.rel
      FROM more
      -- A primary-key probe per candidate (OFFSET 0: the planner would hash every memory).
      ${probe("more")}
      UNION ALL
      SELECT m.id, ${rec(sql`m.last_accessed_at`)}, ${importanceSql(sql`m.importance`)}, d.rel
      FROM memories m LEFT JOIN d ON d.id = m.id
      WHERE m.agent_id = ${agent} AND NOT (SELECT certain FROM g)
    ),
    b AS (SELECT bnd.*, (SELECT count(*) FROM cand) AS n FROM bnd),
    ${scoreAndSelect(p, sql`, (SELECT certain FROM g) AS pruned`)}`;
}
