import { and, type SQL, sql } from "drizzle-orm";
import { filterConditions } from "../../filters";
import { lexiconStatsSql } from "../../lexicon/stats";
import { type HnswIndex, hnswExpression, literal } from "../hnsw-index";
import { importanceSql, recencySql } from "../ranking/components";
import {
  agentLexemeKey,
  agentLexemesMatch,
  bm25IdfSql,
  bm25TermSql,
  lexHead,
  quotedLexeme,
} from "../ranking/relevance/bm25";
import {
  CONTEXT_SHARE,
  HYBRID_VECTOR_SHARE,
  NEIGHBOUR_GAP_S,
  type QueryVector,
} from "../ranking/relevance/kinds";
import { cosineSql, freshSql, negatedVector } from "../ranking/relevance/vector";
import { minMaxSql, streamBoundsSql } from "../ranking/scale";
import { replacementChain } from "../ranking/versions";
import { timeWindowSql, windowCondSql } from "./candidates";
import type { RankParams } from "./params";
import { scoreAndSelect, scoreLiftAndSelect } from "./select";

/**
 * The first phase's lists (docs/adr/0032): how many memories each index contributes as seeds.
 */
export type PhaseSizes = {
  /** Distinct distances nearest the query vector (HNSW, or a scan of the agent's vectors). */
  vector: number;
  /** HNSW results read for them: copies of a memory share a vector, so one distance may be many memories. */
  vectorWide: number;
  /** Seeds per distinct distance: its most recently accessed memories. */
  perVector: number;
  /** The farthest memories (nearest the negated vector): the low end of the scaled ranges. */
  far: number;
  /** Best by BM25 among the postings of the query's rarer lexemes (tf taken as 1 to pick them). */
  lexical: number;
  /** Newest by last access. */
  recent: number;
  /**
   * Postings read per query lexeme at most: a lexeme in more memories seeds nothing and its df is
   * estimated from `dfSample` memories spread over the stream's time, so a word in every memory
   * costs what a word in 10,000 does.
   */
  postingsCap: number;
  dfSample: number;
};

/** Points of the stream's time range the df sample is taken at (10 memories each by default). */
const SAMPLE_SLICES = 200;

export const PHASE_SIZES: PhaseSizes = {
  vector: 200,
  vectorWide: 800,
  perVector: 3,
  far: 10,
  lexical: 200,
  recent: 20,
  postingsCap: 10_000,
  dfSample: 2_000,
};

/**
 * A stream the planner estimates under PHASES_FULL_FROM memories is seeded with half as many by
 * vector and by words: every seed costs what it does at 100k while fewer memories could rank, and
 * half as many agree with exact as well (docs/adr/0032). An estimate missing (never analyzed)
 * counts as large.
 */
export const PHASES_FULL_FROM = 20_000;
export const SMALL_PHASE_SIZES: PhaseSizes = { ...PHASE_SIZES, vector: 100, lexical: 100 };

/**
 * The default's ranking in two phases (a rank profile in Vespa's sense, docs/adr/0032):
 * 1. **Seeds from indexes**, their number bounded by the query, not the stream (PhaseSizes): the
 *    nearest by the query vector, the farthest, the best by BM25 over the GIN postings, the
 *    newest; with a `newer` lift the replacements of superseded seeds; for contextual relevance
 *    each seed's previous and next memory (btree on createdAt, one entry each).
 * 2. **The formula on the seeds and their neighbours**: cosine and BM25 per memory (its vector by
 *    primary key, its own tsvector), fused, mixed with its neighbours' (a seed has both; a
 *    neighbour has the seed's side), scaled, weighted; then the tail every statement shares
 *    (select.ts) with the version lift, and duplicate collapse on its rows (retrieve.ts).
 * Exact where its inputs are: recency and importance bounds are the stream's (btree endpoints),
 * BM25's count and average length the stream's (lexicon statistics), a rare lexeme's df its
 * postings. Approximate (its agreement with exact is held by test/memory/retrieve-phased.test.ts):
 * the nearest as HNSW finds them; the cosine's and
 * contextual relevance's ranges, taken over the scored memories; a common lexeme's df; with a
 * time window the bounds stay the stream's.
 */
export function phasedRankQuery(
  p: RankParams,
  index: HnswIndex | null,
  sizes: PhaseSizes = PHASE_SIZES,
): SQL {
  const q = p.query;
  const lexical = p.lexical;
  if (!q || !lexical || (lexical.kind !== "hybrid" && lexical.kind !== "contextual"))
    throw new Error("phasedRankQuery needs a query vector and hybrid or contextual relevance");
  const agent = p.agentId;
  const contextual = lexical.kind === "contextual";
  const a = lexical.vectorShare ?? HYBRID_VECTOR_SHARE;
  const fresh = freshSql(p.fresh ?? [], "m.id");
  const hasFresh = (p.fresh?.length ?? 0) > 0;
  const w = p.timeWindow;
  // The time window as a predicate on a memories row, as the full statement's (candidates.ts).
  const inWindow = (alias: string) => (w ? sql`AND ${windowCondSql(w, alias)}` : sql``);
  const tw = timeWindowSql(w, and(...filterConditions(agent, {}))).cte;
  const bm25 = (tf: string, dl: string) => sql.raw(bm25TermSql("i.idf", tf, dl, "s.avgdl"));
  const gap = sql.raw(`interval '${NEIGHBOUR_GAP_S} seconds'`);
  // The previous or next memory in the index's order (agent_id, created_at DESC NULLS LAST, id
  // DESC NULLS LAST; none is NULL): one entry read. Ties of createdAt go by the database's
  // collation of id, where the full statement's window uses "C" (the same for ASCII ids).
  const neighbour = (dir: "prev" | "next") => {
    const [cmp, order] = dir === "prev" ? ["<", "DESC NULLS LAST"] : [">", "ASC NULLS FIRST"];
    return sql`(SELECT n.id FROM memories n WHERE n.agent_id = ${agent} ${inWindow("n")}
        AND (n.created_at, n.id) ${sql.raw(cmp)} (sm.created_at, sm.id)
        ORDER BY n.created_at ${sql.raw(order)}, n.id ${sql.raw(order)} LIMIT 1)`;
  };
  // With a `newer` lift a superseded seed's replacements (along its chain) are seeds too, so the
  // lift can hand its score to them (ranking/versions.ts).
  const chain = replacementChain(agent, "m0");
  const replacements =
    p.lift === "newer"
      ? sql`UNION SELECT r.id FROM seeds x JOIN memories m0 ON m0.agent_id = ${agent} AND m0.id = x.id ${chain.joins}
        CROSS JOIN LATERAL unnest(${chain.ids}) r(id)
        WHERE m0.superseded_by IS NOT NULL AND r.id IS NOT NULL`
      : sql``;
  return sql`
    WITH ${fresh.cte} ${lexHead(lexical.text)} ${tw}
    bnd AS MATERIALIZED (SELECT ${streamBoundsSql(p, agent)}),
    lex_stats AS MATERIALIZED (${lexiconStatsSql(agent)}),
    lex_own AS MATERIALIZED (
      SELECT t.t AS lexeme, x.id, x.dl
      FROM lex_terms t CROSS JOIN LATERAL (
        SELECT m.id, length(m.description_tsv)::float8 AS dl
        FROM memories m
        WHERE ${agentLexemesMatch("m", agent, "@>", sql`ARRAY[${agentLexemeKey(agent, sql`t.t`)}]`)} ${inWindow("m")}
        LIMIT ${sizes.postingsCap + 1}
      ) x
    ),
    lex_read AS (SELECT lexeme, count(*)::float8 AS df FROM lex_own GROUP BY lexeme),
    lex_span AS MATERIALIZED (
      SELECT (SELECT min(created_at) FROM memories WHERE agent_id = ${agent}) AS lo,
        (SELECT max(created_at) FROM memories WHERE agent_id = ${agent}) AS hi
    ),
    -- A sample spread over the stream's time: the memories just before each of SAMPLE_SLICES points.
    lex_sample AS MATERIALIZED (
      SELECT x.v FROM lex_span sp CROSS JOIN generate_series(1, ${SAMPLE_SLICES}) g
      CROSS JOIN LATERAL (
        SELECT m.description_tsv AS v FROM memories m
        WHERE m.agent_id = ${agent} AND m.created_at <= sp.lo + (sp.hi - sp.lo) * (g::float8 / ${SAMPLE_SLICES})
        ORDER BY m.created_at DESC NULLS LAST, m.id DESC NULLS LAST LIMIT ${Math.ceil(sizes.dfSample / SAMPLE_SLICES)}
      ) x
    ),
    lex_idf AS MATERIALIZED (
      SELECT d.lexeme, d.df AS read, x.df, ${sql.raw(bm25IdfSql("s.n", "x.df"))} AS idf
      FROM lex_read d CROSS JOIN lex_stats s
      CROSS JOIN LATERAL (SELECT CASE WHEN d.df <= ${sizes.postingsCap} THEN d.df ELSE greatest(d.df, s.n
        * (SELECT count(*) FROM lex_sample WHERE v @@ ${lexemeQuery("d.lexeme")})::float8
        / greatest((SELECT count(*) FROM lex_sample), 1)) END AS df) x
    ),
    lex_top AS MATERIALIZED (
      SELECT o.id FROM lex_own o JOIN lex_idf i USING (lexeme) CROSS JOIN lex_stats s
      WHERE i.read <= ${sizes.postingsCap}
      GROUP BY o.id ORDER BY sum(${bm25("1", "o.dl")}) DESC, o.id LIMIT ${sizes.lexical}
    ),
    ${vectorSeeds(p, q, index, sizes, inWindow)}
    recent AS MATERIALIZED (
      SELECT m.id FROM memories m WHERE m.agent_id = ${agent} ${inWindow("m")}
      ORDER BY m.last_accessed_at DESC NULLS LAST LIMIT ${sizes.recent}
    ),
    seeds AS MATERIALIZED (
      SELECT id FROM vec_top UNION SELECT id FROM far UNION SELECT id FROM lex_top UNION SELECT id FROM recent
      ${hasFresh ? sql`UNION SELECT f.id FROM fresh f JOIN memories m ON m.agent_id = ${agent} AND m.id = f.id ${inWindow("m")}` : sql``}
    ),
    ${
      contextual
        ? sql`sm AS MATERIALIZED (
      SELECT m.id, m.created_at FROM (SELECT id FROM seeds ${replacements}) s
      CROSS JOIN LATERAL (SELECT id, created_at FROM memories WHERE agent_id = ${agent} AND id = s.id OFFSET 0) m
    ),
    nb AS MATERIALIZED (SELECT sm.id, ${neighbour("prev")} AS prev, ${neighbour("next")} AS next FROM sm),
    s_ids AS (
      SELECT id, bool_or(seed) AS seed, array_agg(other) FILTER (WHERE other IS NOT NULL) AS others FROM (
        SELECT id, true AS seed, prev AS other FROM nb UNION ALL SELECT id, true, next FROM nb
        UNION ALL SELECT prev, false, id FROM nb WHERE prev IS NOT NULL
        UNION ALL SELECT next, false, id FROM nb WHERE next IS NOT NULL
      ) x GROUP BY id
    ),`
        : sql`s_ids AS (SELECT id, true AS seed, NULL::text[] AS others FROM seeds ${replacements}),`
    }
    s_rows AS MATERIALIZED (
      SELECT m.id, x.seed, x.others, m.created_at AS at, m.last_accessed_at, m.importance,
        ${cosineSql(fresh.embedding, q)} AS cos,
        CASE WHEN m.description_tsv @@ (SELECT q FROM lex_query) THEN coalesce((
          SELECT sum(${bm25("u.tf", "length(m.description_tsv)")} ORDER BY u.lexeme)
          FROM (SELECT v.lexeme, greatest(cardinality(v.positions), 1)::float8 AS tf
            FROM unnest(ts_filter(setweight(setweight(m.description_tsv, 'D'), 'A', (SELECT a FROM lex_terms_a)), '{a}')) v) u
          JOIN lex_idf i ON i.lexeme = u.lexeme CROSS JOIN lex_stats s
        ), 0) ELSE 0 END AS bm25
      FROM s_ids x
      -- By primary key, one memory at a time (OFFSET 0 keeps the planner from hashing the stream).
      CROSS JOIN LATERAL (
        SELECT id, created_at, last_accessed_at, importance, description_tsv FROM memories
        WHERE agent_id = ${agent} AND id = x.id OFFSET 0
      ) m
      LEFT JOIN LATERAL (
        SELECT embedding FROM memory_embeddings
        WHERE agent_id = ${agent} AND memory_id = x.id AND model = ${q.model} AND dimensions = ${q.dimensions} OFFSET 0
      ) e ON true
      ${fresh.join}
    ),
    rb AS MATERIALIZED (
      SELECT min(cos) AS cos_lo, max(cos) AS cos_hi,
        -- BM25's least is 0 unless every memory holds a query word (counted only when the postings could cover the stream).
        CASE WHEN (SELECT sum(read) FROM lex_idf) >= (SELECT n FROM lex_stats)
          AND (SELECT count(DISTINCT id) FROM lex_own) >= (SELECT n FROM lex_stats) THEN min(bm25) ELSE 0 END AS bm25_lo,
        greatest(max(bm25), 0) AS bm25_hi
      FROM s_rows
    ),
    s_fused AS MATERIALIZED (
      SELECT r.id, r.seed, r.others, r.at, r.last_accessed_at, r.importance,
        ${a}::float8 * ${minMaxSql(sql`r.cos`, sql`rb.cos_lo`, sql`rb.cos_hi`, 0)}
        + ${1 - a}::float8 * ${minMaxSql(sql`r.bm25`, sql`rb.bm25_lo`, sql`rb.bm25_hi`, 0)} AS rel
      FROM s_rows r CROSS JOIN rb
    ),
    ${
      contextual
        ? sql`s_map AS MATERIALIZED (
      SELECT jsonb_object_agg(id, jsonb_build_array(rel::text, at)) AS m FROM s_fused
    ),
    s_rel AS (
      SELECT f.id, f.seed, f.last_accessed_at, f.importance,
        f.rel + ${CONTEXT_SHARE}::float8 * coalesce((
          SELECT max((mm.m -> o ->> 0)::float8) FROM unnest(f.others) o
          WHERE (mm.m -> o ->> 1)::timestamptz BETWEEN f.at - ${gap} AND f.at + ${gap}
        ), 0) AS rel
      FROM s_fused f CROSS JOIN s_map mm
    ),`
        : sql`s_rel AS (SELECT id, seed, last_accessed_at, importance, rel FROM s_fused),`
    }
    cand AS MATERIALIZED (
      SELECT id, seed, ${recencySql(p, sql`last_accessed_at`)} AS rec, ${importanceSql(sql`importance`)} AS imp, rel
      FROM s_rel
    ),
    b AS (
      SELECT bnd.rec_lo, bnd.rec_hi, bnd.imp_lo, bnd.imp_hi, c.rel_lo, c.rel_hi, c.n
      -- A seed's context is whole (both neighbours scored); a neighbour's lacks its far side.
      FROM bnd, (SELECT min(rel) FILTER (WHERE seed) AS rel_lo, max(rel) AS rel_hi, count(*) AS n FROM cand) c
    ),
    ${p.lift ? scoreLiftAndSelect({ ...p, query: q, lift: p.lift }) : scoreAndSelect(p)}`;
}

/** A lexeme column as a tsquery (quoted as lexHead quotes them). */
const lexemeQuery = (column: string) => sql.raw(`(${quotedLexeme(column)})::tsquery`);

/**
 * `vec_top (id)`: the `n` memories nearest the query vector, and `far (id)`: the farthest one
 * (nearest the negated vector: its cosine is the least). Through the model's HNSW index when
 * the plan has one (model and dimension inlined, so a generic plan still proves the partial
 * index's predicate); else in one pass over the agent's vectors.
 */
function vectorSeeds(
  p: RankParams,
  q: QueryVector,
  index: HnswIndex | null,
  sizes: PhaseSizes,
  inWindow: (alias: string) => SQL,
): SQL {
  const n = sizes.vector;
  const agent = p.agentId;
  const windowJoin = p.timeWindow
    ? sql`JOIN memories m ON m.agent_id = ${agent} AND m.id = e.memory_id ${inWindow("m")}`
    : sql``;
  if (!index) {
    return sql`
    vec_all AS MATERIALIZED (
      SELECT e.memory_id AS id, e.embedding <=> ${q.vector}::vector AS d FROM memory_embeddings e ${windowJoin}
      WHERE e.agent_id = ${agent} AND e.model = ${q.model} AND e.dimensions = ${q.dimensions}
    ),
    vec_top AS MATERIALIZED (SELECT id FROM vec_all ORDER BY d, id LIMIT ${n}),
    far AS MATERIALIZED (SELECT id FROM vec_all ORDER BY d DESC, id LIMIT ${sizes.far}),`;
  }
  const expr = sql.raw(hnswExpression(index, "e.embedding"));
  const cast = sql.raw(`::${index.storage}(${Math.trunc(q.dimensions)})`);
  const onModel = sql.raw(`e.model = ${literal(q.model)} AND e.dimensions = ${Math.trunc(q.dimensions)}`);
  const nearest = (vector: string, limit: number) => sql`
      SELECT e.memory_id AS id, ${expr} <=> ${vector}${cast} AS d FROM memory_embeddings e ${windowJoin}
      WHERE e.agent_id = ${agent} AND ${onModel}
      ORDER BY ${expr} <=> ${vector}${cast} LIMIT ${limit}`;
  return sql`
    vec_near AS MATERIALIZED (${nearest(q.vector, sizes.vectorWide)}
    ),
    vec_top AS MATERIALIZED (
      SELECT id FROM (
        SELECT v.id, dense_rank() OVER (ORDER BY v.d) AS grp,
          row_number() OVER (PARTITION BY v.d ORDER BY m.last_accessed_at DESC, m.importance DESC NULLS LAST, v.id) AS nth
        FROM vec_near v
        CROSS JOIN LATERAL (SELECT last_accessed_at, importance FROM memories WHERE agent_id = ${agent} AND id = v.id OFFSET 0) m
      ) x WHERE grp <= ${n} AND nth <= ${sizes.perVector}
    ),
    far AS MATERIALIZED (SELECT id FROM (${nearest(negatedVector(q.vector), sizes.far)}) f),`;
}
