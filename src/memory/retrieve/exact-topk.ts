import { type SQL, sql } from "drizzle-orm";
import { narrowed, type RankParams, recencyOf, scoreAndSelect } from "./ranking-sql";
import { freshSql } from "./relevance";

/**
 * Slack for float rounding when a bound is compared with computed scores: a memory is left
 * out only if it trails the k-th score by more than this, so rounding never changes the result.
 */
const EPS = 1e-9;

/**
 * Memories in the recency + importance list (and per importance level). 100 against 300, the
 * threshold statement alone, paired per query (`bench/exact-floor.ts --lists 300,150,100`,
 * 2026-11-25, the default's and the paper's weights): 0.87-0.90× the time for a 10k agent,
 * 0.85-0.89× for the 10k agent in the 130k table, 0.96-1.00× at 100k; 150 in between; 50 and
 * 1,000 worse (a looser bound lets more candidates through; a longer list costs its own sort).
 * Results are the same at every size (the bound adapts; the bench checks it).
 */
const RECENT_IMPORTANT = 100;
/**
 * Below this many vectors every memory is ranked. Measured when the lists held up to 11 × 300
 * memories, which could be the whole stream below 3,300: at 10k the threshold path answered in
 * 2.1-2.4× the floor against 2.9-3.2× for ranking every memory (bench/exact-floor.ts,
 * docs/performance.md). Not re-measured for lists of 100.
 */
export const MIN_STREAM = 3_300;
/** Memories taken by relevance alone to seed the k-th score. */
const MOST_RELEVANT = 100;

/**
 * Whether `exactTopKQuery` applies: vector relevance, no filters or time window, no negative
 * weight, and a stream not known to be below MIN_STREAM. A small stream (`p.smallStream`, from
 * the agent-state read) would be ranked in full by the statement's own gate anyway; the full
 * statement does that without planning the lists: 0.6 against 2.2 ms planning, 8.2 against 10.7 ms
 * in all for a 1k agent (docs/performance.md).
 */
export function topKApplies(p: RankParams): boolean {
  const w = p.weights;
  return (
    p.query !== null &&
    !p.lexical &&
    !narrowed(p) &&
    !p.smallStream &&
    w.recency >= 0 &&
    w.importance >= 0 &&
    w.relevance >= 0
  );
}

/**
 * The exact ranking (same bounds, scores and tie order as `exactRankQuery`) without joining
 * every memory to its vector. Score = w_v·rel' + b, where b = w_r·rec' + w_i·imp'. Steps:
 * 1. `d`: every distance of the agent's vectors, once (the floor), and the exact bounds: rel
 *    min/max from `d`, recency and importance from btree endpoints (recency is monotone in
 *    last_accessed_at, so its min/max are those of the endpoints).
 * 2. `blist`: the top memories by b (each importance level's most recent, including pending
 *    importance); b_M = the last one's b. Any memory outside the list has b ≤ b_M.
 * 3. kth0 = the k-th best exact score in the list (its vectors by primary key): a lower bound of
 *    the true k-th score. A memory outside the list can reach the top k only if
 *    w_v·rel' + b_M ≥ kth0: those are found in one pass over `d` (`over0`).
 * 4. kth = the k-th best among the list and over0's most relevant: a tighter lower bound. The
 *    candidates are the list and the memories of over0 with w_v·rel' + b_M ≥ kth, scored
 *    exactly. A memory with no vector scores at most b_M; when b_M is not below kth the
 *    statement ranks every memory instead.
 * So only a few hundred memories are joined with `memories` instead of all of them, and the
 * distances are read twice after the floor's pass: for their bounds and for over0. A top-N sort
 * of every distance by relevance (the seeds before) cost more than both (docs/performance.md).
 */
export function exactTopKQuery(
  p: RankParams,
  { minStream = MIN_STREAM, listSize = RECENT_IMPORTANT }: { minStream?: number; listSize?: number } = {},
): SQL {
  const q = p.query;
  if (!q) throw new Error("exactTopKQuery needs a query vector");
  const agent = p.agentId;
  const fresh = p.fresh ?? [];
  const cosine = (embedding: SQL) => sql`1 - (${embedding} <=> ${q.vector}::vector)`;
  // The agent's vectors of the query's model (stored ones, and `fresh`).
  const stored = (memoryId: SQL) =>
    sql`FROM memory_embeddings e WHERE e.agent_id = ${agent} AND e.memory_id = ${memoryId}
      AND e.model = ${q.model} AND e.dimensions = ${q.dimensions}`;
  // Vectors embedded at retrieve time count for memories that still have none stored (as in fullRankQuery).
  const freshRows =
    fresh.length === 0
      ? sql``
      : sql`UNION ALL SELECT f.id, ${cosine(sql`f.embedding`)} FROM fresh f
        WHERE NOT EXISTS (SELECT 1 ${stored(sql`f.id`)})`;
  const freshRel = (memoryId: SQL) =>
    fresh.length === 0
      ? sql``
      : sql`, (SELECT ${cosine(sql`f.embedding`)} FROM fresh f WHERE f.id = ${memoryId})`;
  const w = p.weights;
  const rec = (column: SQL) => recencyOf(p, column);
  const relScaled = (col: SQL) =>
    sql`CASE WHEN bnd.vhi > bnd.vlo THEN (${col} - bnd.vlo) / (bnd.vhi - bnd.vlo) ELSE 0.5 END`;
  const b = (recCol: SQL, impCol: SQL) =>
    sql`${w.recency}::float8 * CASE WHEN bnd.rhi > bnd.rlo THEN (${recCol} - bnd.rlo) / (bnd.rhi - bnd.rlo) ELSE 0.5 END
      + ${w.importance}::float8 * CASE WHEN ${impCol} IS NULL THEN 0.5 WHEN bnd.ihi > bnd.ilo THEN (${impCol} - bnd.ilo) / (bnd.ihi - bnd.ilo) ELSE 0.5 END`;
  // Whether a memory of relevance `rel` outside the list can still reach a k-th score of `kth`.
  const passes = (rel: SQL, kth: SQL) =>
    sql`${w.relevance}::float8 * ${relScaled(rel)} + (SELECT b_m FROM bm) >= ${kth} - ${EPS}::float8`;
  // The k-th best exact score among the rows of `cte` (id, rec, imp, rel); -Infinity if fewer.
  const kthOf = (cte: string) =>
    sql`coalesce((
        SELECT ${b(sql.raw(`${cte}.rec`), sql.raw(`${cte}.imp`))} + ${w.relevance}::float8 * coalesce(${relScaled(sql.raw(`${cte}.rel`))}, 0)
        FROM ${sql.raw(cte)} CROSS JOIN bnd
        ORDER BY 1 DESC OFFSET ${p.k - 1} LIMIT 1), '-Infinity'::float8)`;
  const level = (cond: SQL) =>
    sql`SELECT id, importance::float8 AS imp, ${rec(sql`last_accessed_at`)} AS rec FROM memories
        WHERE agent_id = ${agent} AND ${cond} ORDER BY last_accessed_at DESC LIMIT ${listSize}`;
  return sql`
    WITH ${freshSql(fresh, "").cte} d AS MATERIALIZED (
      SELECT e.memory_id AS id, ${cosine(sql`e.embedding`)} AS rel
      FROM memory_embeddings e
      WHERE e.agent_id = ${agent} AND e.model = ${q.model} AND e.dimensions = ${q.dimensions}
      ${freshRows}
    ),
    -- One pass over the distances for both relevance bounds and the count.
    dagg AS MATERIALIZED (SELECT min(rel) AS vlo, max(rel) AS vhi, count(*) AS n FROM d),
    bnd AS MATERIALIZED (
      SELECT ${rec(sql`(SELECT min(last_accessed_at) FROM memories WHERE agent_id = ${agent})`)} AS rlo,
        ${rec(sql`(SELECT max(last_accessed_at) FROM memories WHERE agent_id = ${agent})`)} AS rhi,
        (SELECT min(importance) FROM memories WHERE agent_id = ${agent})::float8 AS ilo,
        (SELECT max(importance) FROM memories WHERE agent_id = ${agent})::float8 AS ihi,
        dagg.vlo, dagg.vhi
      FROM dagg
    ),
    g0 AS MATERIALIZED (SELECT n >= ${minStream} AS big FROM dagg),
    blist AS MATERIALIZED (
      SELECT x.id, x.rec, x.imp, ${b(sql`x.rec`, sql`x.imp`)} AS b
      FROM (
        SELECT l.* FROM generate_series(1, 10) v(imp) CROSS JOIN LATERAL (${level(sql`importance = v.imp`)}) l
        UNION ALL (${level(sql`importance IS NULL`)})
      ) x CROSS JOIN bnd
      WHERE (SELECT big FROM g0)
      ORDER BY b DESC LIMIT ${listSize}
    ),
    bm AS (
      SELECT CASE WHEN count(*) >= ${listSize} THEN min(b) ELSE '-Infinity'::float8 END AS b_m FROM blist
    ),
    -- The list with its relevance, by primary-key lookups of its vectors (the same distance as
    -- in d), and kth0: the k-th best exact score among it, a first lower bound of the true k-th.
    bseed AS MATERIALIZED (
      SELECT blist.id, blist.rec, blist.imp, coalesce(v.rel ${freshRel(sql`blist.id`)}) AS rel FROM blist
      LEFT JOIN LATERAL (SELECT ${cosine(sql`e.embedding`)} AS rel ${stored(sql`blist.id`)} OFFSET 0) v ON true
    ),
    kth0 AS MATERIALIZED (SELECT ${kthOf("bseed")} AS kth),
    -- The test passes(rel, kth0) solved for rel once: w_v·rel' + b_M ≥ kth0 − ε holds where
    -- rel ≥ this cut. Loosened by far more than the rounding of either form (1e-9 of the scores'
    -- magnitude, in relevance units), so it lets a few more memories through, never fewer; the
    -- tests after it are the exact ones.
    cut0 AS MATERIALIZED (
      SELECT CASE
          WHEN kth0.kth = '-Infinity'::float8 THEN '-Infinity'::float8
          WHEN bm.b_m = '-Infinity'::float8 THEN 'Infinity'::float8
          -- A NaN cosine (a zero vector) makes every scaled relevance NaN, which passes.
          WHEN bnd.vhi = 'NaN'::float8 OR bnd.vlo = 'NaN'::float8 THEN '-Infinity'::float8
          WHEN ${w.relevance}::float8 > 0 AND bnd.vhi > bnd.vlo
            THEN bnd.vlo + (kth0.kth - ${EPS}::float8 - bm.b_m) * (bnd.vhi - bnd.vlo) / ${w.relevance}::float8
              - 1e-9 * (bnd.vhi - bnd.vlo) * (1 + abs(kth0.kth) + abs(bm.b_m)) / ${w.relevance}::float8 - 1e-12
          -- Relevance scales to 0.5 for all, or does not count: the test is the same for every memory.
          WHEN ${w.relevance}::float8 * 0.5 + bm.b_m >= kth0.kth - ${EPS}::float8 THEN '-Infinity'::float8
          ELSE 'Infinity'::float8 END AS rel
      FROM kth0, bm, bnd
    ),
    -- Every memory outside the list that could beat kth0, in one pass over the distances (one
    -- comparison each). The true k-th score is at least kth0, so whatever can still reach the
    -- top k is in here. OFFSET 0: the bound is evaluated in the pass, not after a join.
    over0 AS MATERIALIZED (
      SELECT d.id, d.rel FROM d
      WHERE (SELECT big FROM g0) AND d.rel >= (SELECT rel FROM cut0)
      OFFSET 0
    ),
    -- The seeds: the list and the most relevant of over0 (usually a few hundred rows to sort,
    -- not the whole stream), whose scores raise the bound. They stay candidates.
    seed AS MATERIALIZED (
      SELECT s.id, s.rec, s.imp, s.rel FROM (
        SELECT id, rec, imp, rel FROM bseed
        UNION
        SELECT m.id, ${rec(sql`m.last_accessed_at`)}, m.importance::float8, r.rel
        FROM (SELECT id, rel FROM over0 ORDER BY rel DESC LIMIT ${MOST_RELEVANT}) r
        CROSS JOIN LATERAL (SELECT id, last_accessed_at, importance FROM memories
          WHERE agent_id = ${agent} AND id = r.id OFFSET 0) m
      ) s
    ),
    kth AS MATERIALIZED (SELECT ${kthOf("seed")} AS kth),
    g AS MATERIALIZED (
      -- Small streams rank every memory: the lists would hold most of them anyway. CASE keeps
      -- the lists from being computed at all then (sub-selects run when first needed).
      SELECT CASE WHEN NOT (SELECT big FROM g0) THEN false
          ELSE (SELECT kth.kth > bm.b_m + ${EPS}::float8 FROM kth, bm) END AS certain
    ),
    -- Memories outside the seeds that can still reach the top k, with their relevance.
    more AS MATERIALIZED (
      SELECT over0.id, over0.rel FROM over0 CROSS JOIN bnd
      WHERE (SELECT certain FROM g) AND ${passes(sql`over0.rel`, sql`(SELECT kth FROM kth)`)}
        AND NOT EXISTS (SELECT 1 FROM seed WHERE seed.id = over0.id)
    ),
    cand AS MATERIALIZED (
      SELECT id, rec, imp, rel FROM seed WHERE (SELECT certain FROM g)
      UNION ALL
      SELECT m.id, ${rec(sql`m.last_accessed_at`)}, m.importance::float8, more.rel
      FROM more
      -- OFFSET 0 keeps this a primary-key probe per candidate (the planner would hash every memory).
      CROSS JOIN LATERAL (SELECT id, last_accessed_at, importance FROM memories
        WHERE agent_id = ${agent} AND id = more.id OFFSET 0) m
      UNION ALL
      SELECT m.id, ${rec(sql`m.last_accessed_at`)}, m.importance::float8, d.rel
      FROM memories m LEFT JOIN d ON d.id = m.id
      WHERE m.agent_id = ${agent} AND NOT (SELECT certain FROM g)
    ),
    b AS (SELECT rlo, rhi, ilo, ihi, vlo, vhi, (SELECT count(*) FROM cand) AS n FROM bnd),
    ${scoreAndSelect(p)}`;
}
