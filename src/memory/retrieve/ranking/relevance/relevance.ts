import { type SQL, sql } from "drizzle-orm";
import { lexiconStatsSql } from "../../../lexicon/stats";
import { minMaxOverSql, minMaxSql } from "../scale";
import { basePostings, bm25Ctes, lexHead, lexicalColumns, lexStatsOf, standalonePostings } from "./bm25";
import { formComponentSql, formCtes, projectedCosineSql } from "./form";
import {
  CONTEXT_FIELD_WEIGHTS,
  CONTEXT_SHARE,
  type FreshVector,
  HYBRID_VECTOR_SHARE,
  type LexicalQuery,
  NEIGHBOUR_GAP_S,
  type QueryVector,
} from "./kinds";
import { cosineSql, freshSql } from "./vector";

/**
 * The SQL pieces that give each candidate its raw relevance `rel`, for a ranking query of the
 * form `WITH ${ctes} cand AS (SELECT …, ${expr} AS rel FROM memories ${join} WHERE ${where})`.
 * The caller scales `rel` over the candidate set like every other component (scale.ts).
 * - vector: cosine similarity; NULL (→ scaled 0) for a memory with no vector of the model.
 * - lexical: BM25 over the candidate set; 0 for a memory sharing no word with the query.
 * - hybrid: α·cos' + (1 − α)·bm25', each part min-max scaled over the candidates first
 *   (cos' = 0 without a vector; a part equal across candidates is 0.5), never NULL.
 * The vector join names the agent as a constant: a vector always belongs to its memory's agent
 * (store.ts copies it), and saying so lets the planner read only the agent's vectors through
 * `memory_embeddings (agent_id, model)` instead of every vector of the model in the table
 * (docs/adr/0003).
 * `source`, when set, replaces `memories ${join} WHERE ${where}` in the caller's candidate CTE:
 * a CTE aliased `memories` that already holds exactly the candidates with the columns ranking
 * reads (id, kind, last_accessed_at, importance) and `rel`. Hybrid and contextual relevance scan
 * the candidates once for their fusion anyway; joining `memories` again cost ~15% at 11k.
 */
export type RelevanceSql = { ctes: SQL; join: SQL; expr: SQL; source?: SQL };

/**
 * Where the candidates' rows come from: `filtered` joins the tables under `where` first;
 * `whole` reads the agent's whole stream, each table by a subquery of its own; `indexed` (the
 * fused threshold statement's; hybrid and contextual relevance with a query vector, whole
 * stream) reads no tsvector of a memory without a query lexeme: BM25's postings come from the
 * GIN index over (agent_id, description_tsv) for the memories holding one, its count and
 * average length from the statistics the triggers keep (lexicon/stats.ts, ADR 0024), the fused
 * parts' bounds from aggregates instead of windows over every row, and the source rows carry
 * the raw last access and importance (the statement computes recency only for the memories
 * that can reach the top k). The same values as `whole`, bit for bit.
 */
export type RelevanceRows = "filtered" | "whole" | "indexed";

export function relevanceSql(
  agentId: string,
  vector: QueryVector | null,
  lexical: LexicalQuery | undefined,
  where: SQL | undefined,
  fresh: FreshVector[] = [],
  whole: boolean | RelevanceRows = false,
  /** The last-access column filtered rows carry (as of a time: ../../../as-of.ts). */
  access: SQL = sql`memories.last_accessed_at`,
): RelevanceSql {
  const rows: RelevanceRows = whole === true ? "whole" : whole === false ? "filtered" : whole;
  const f = vector
    ? freshSql(fresh, "memories.id")
    : { cte: sql``, join: sql``, embedding: sql`e.embedding` };
  const cosine = vector ? cosineSql(f.embedding, vector) : sql`NULL::float8`;
  const embeddings = vector
    ? sql`LEFT JOIN memory_embeddings e ON e.memory_id = memories.id AND e.model = ${vector.model}
        AND e.dimensions = ${vector.dimensions} AND e.agent_id = ${agentId} ${f.join}`
    : sql``;
  if (!lexical) return { ctes: f.cte, join: embeddings, expr: cosine };
  if (lexical.kind === "lexical") {
    return {
      ctes: sql`${f.cte}${lexHead(lexical.text)}${bm25Ctes(standalonePostings(agentId, where), lexStatsOf(where))}`,
      join: sql`LEFT JOIN lex ON lex.id = memories.id`,
      expr: sql`coalesce(lex.score, 0)`,
    };
  }
  const a = lexical.vectorShare ?? HYBRID_VECTOR_SHARE;
  const fieldWeights = lexical.kind === "windowed" ? CONTEXT_FIELD_WEIGHTS : [];
  const indexed = rows === "indexed";
  if (indexed && (!vector || fieldWeights.length > 0))
    throw new Error("indexed relevance rows need a query vector and hybrid or contextual relevance");
  // Windowed relevance's cosine without the question form (kinds.ts, form.ts): the query vector it needs.
  const form = lexical.kind === "windowed" ? vector : null;
  // The columns ranking reads besides `rel`, carried through (indexed rows: what the threshold
  // statement scores its candidates by).
  const carry = indexed ? "last_accessed_at, importance, " : "kind, last_accessed_at, importance, ";
  const base = indexed
    ? indexedBase(agentId, vector as QueryVector, where, fresh.length > 0)
    : rows === "whole" && vector
      ? wholeStreamBase(agentId, vector, where, fresh.length > 0, form !== null)
      : sql`
      SELECT memories.id, memories.kind, ${access} AS last_accessed_at, memories.importance,
        memories.created_at AS at, ${cosine} AS cos,${form ? sql` ${formComponentSql(f.embedding)} AS cf,` : sql``} ${lexicalColumns}
      FROM memories ${embeddings}
      WHERE ${where}`;
  const lex = indexed
    ? bm25Ctes(standalonePostings(agentId, where), lexiconStatsSql(agentId))
    : bm25Ctes(
        basePostings,
        sql`SELECT count(*)::float8 AS n, avg(dl)::float8 AS avgdl FROM rel_base`,
        fieldWeights,
      );
  const fused = sql`${f.cte}${lexHead(lexical.text)}${form ? formCtes(agentId, form, fresh) : sql``}
    rel_base AS MATERIALIZED (${base}
    ),${lex}
    rel_raw AS (
      SELECT r.id, ${sql.raw(carry.replace(/(\w+), /g, "r.$1, "))}r.at, ${form ? projectedCosineSql : sql`r.cos`} AS cos,
        coalesce(lex.score, 0) AS bm25
      FROM rel_base r LEFT JOIN lex ON lex.id = r.id${form ? sql` CROSS JOIN rel_q q` : sql``}
    ),
    ${
      indexed
        ? sql`${indexedBounds}
    rel_fused AS (
      SELECT id, ${sql.raw(carry)}at,
        ${a}::float8 * ${minMaxSql(sql`cos`, sql`rel_rb.cos_lo`, sql`rel_rb.cos_hi`, 0)}
        + ${1 - a}::float8 * ${minMaxSql(sql`bm25`, sql`rel_rb.bm25_lo`, sql`rel_rb.bm25_hi`, 0)} AS rel
      FROM rel_raw CROSS JOIN rel_rb
    ),`
        : sql`
    rel_fused AS (
      SELECT id, ${sql.raw(carry)}at,
        ${a}::float8 * ${minMaxOverSql("cos", 0)} + ${1 - a}::float8 * ${minMaxOverSql("bm25", 0)} AS rel FROM rel_raw
    ),`
    }`;
  if (lexical.kind === "hybrid") {
    return {
      ctes: fused,
      join: sql``,
      expr: sql`memories.rel`,
      source: sql`rel_fused AS memories`,
    };
  }
  // Neighbours in createdAt order (id breaks ties) within NEIGHBOUR_GAP_S; the first and last
  // memory, and one a gap away from the next, have one neighbour or none.
  const gap = sql.raw(`interval '${NEIGHBOUR_GAP_S} seconds'`);
  return {
    ctes: sql`${fused}
    rel_ctx AS (
      SELECT id, ${sql.raw(carry)}
        rel + ${CONTEXT_SHARE}::float8 * greatest(
          CASE WHEN lag(at) OVER w >= at - ${gap} THEN lag(rel) OVER w ELSE 0 END,
          CASE WHEN lead(at) OVER w <= at + ${gap} THEN lead(rel) OVER w ELSE 0 END) AS rel
      FROM rel_fused WINDOW w AS (ORDER BY at, id COLLATE "C")
    ),`,
    join: sql``,
    expr: sql`memories.rel`,
    source: sql`rel_ctx AS memories`,
  };
}

/**
 * `rel_base` when the candidates are the agent's whole stream (no filter, no time window): each
 * table is read by a subquery of its own (OFFSET 0 keeps it one), joined on the id. Joining the
 * tables themselves carried every candidate's tsvector, the last column of a wide row, through
 * the join (~0.9× the time at 11k memories this way). With filters or a time window the join
 * comes first (relevanceSql), so only the candidates' cosines are computed. The cosine is the
 * stored vector's, else the fresh one's.
 */
function wholeStreamBase(
  agentId: string,
  vector: QueryVector,
  where: SQL | undefined,
  fresh: boolean,
  form = false,
): SQL {
  const cos = fresh ? sql`coalesce(e.cos, ${cosineSql(sql`fresh.embedding`, vector)})` : sql`e.cos`;
  const cf = fresh ? sql`coalesce(e.cf, ${formComponentSql(sql`fresh.embedding`)})` : sql`e.cf`;
  return sql`
      SELECT m.id, m.kind, m.last_accessed_at, m.importance, m.at, ${cos} AS cos,${form ? sql` ${cf} AS cf,` : sql``} m.dl, m.v
      FROM (
        SELECT memories.id, memories.kind, memories.last_accessed_at, memories.importance,
          memories.created_at AS at, ${lexicalColumns}
        FROM memories WHERE ${where} OFFSET 0
      ) m LEFT JOIN (
        SELECT e.memory_id, ${cosineSql(sql`e.embedding`, vector)} AS cos${form ? sql`, ${formComponentSql(sql`e.embedding`)} AS cf` : sql``}
        FROM memory_embeddings e
        WHERE e.agent_id = ${agentId} AND e.model = ${vector.model} AND e.dimensions = ${vector.dimensions} OFFSET 0
      ) e ON e.memory_id = m.id ${fresh ? sql`LEFT JOIN fresh ON fresh.id = m.id` : sql``}`;
}

/**
 * The bounds of the fused parts over the whole stream, as the window aggregates of
 * minMaxOverSql take them over every row, without a window over every row: the cosines' from
 * `rel_base`; BM25's from the `lex` rows alone, since every other memory scores 0 (BM25 of a
 * posting is > 0: idf and tf are), which counts only when some memory has no posting (fewer
 * `lex` rows than the kept count `n`). min and max pick a value, so they are the same bit for bit.
 */
const indexedBounds = sql`
    rel_rb AS MATERIALIZED (
      SELECT c.cos_lo, c.cos_hi,
        CASE WHEN l.n < s.n THEN least(0::float8, l.lo) ELSE l.lo END AS bm25_lo,
        CASE WHEN l.n < s.n THEN greatest(0::float8, l.hi) ELSE l.hi END AS bm25_hi
      FROM (SELECT min(cos) AS cos_lo, max(cos) AS cos_hi FROM rel_base) c,
        (SELECT count(*) AS n, min(score) AS lo, max(score) AS hi FROM lex) l, lex_stats s
    ),`;

/**
 * `rel_base` of indexed rows: every memory's id, last access, importance and createdAt (no
 * tsvector) and its cosine, by the same subqueries as wholeStreamBase; BM25 comes from the GIN postings.
 */
function indexedBase(agentId: string, vector: QueryVector, where: SQL | undefined, fresh: boolean): SQL {
  const cos = fresh ? sql`coalesce(e.cos, ${cosineSql(sql`fresh.embedding`, vector)})` : sql`e.cos`;
  return sql`
      SELECT m.id, m.last_accessed_at, m.importance, m.at, ${cos} AS cos
      FROM (
        SELECT memories.id, memories.last_accessed_at, memories.importance, memories.created_at AS at
        FROM memories WHERE ${where} OFFSET 0
      ) m
      LEFT JOIN (
        SELECT e.memory_id, ${cosineSql(sql`e.embedding`, vector)} AS cos FROM memory_embeddings e
        WHERE e.agent_id = ${agentId} AND e.model = ${vector.model} AND e.dimensions = ${vector.dimensions} OFFSET 0
      ) e ON e.memory_id = m.id ${fresh ? sql`LEFT JOIN fresh ON fresh.id = m.id` : sql``}`;
}
