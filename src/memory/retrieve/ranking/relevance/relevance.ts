import { type SQL, sql } from "drizzle-orm";
import { minMaxOverSql } from "../scale";
import { basePostings, bm25Ctes, lexHead, lexicalColumns, lexStatsOf, standalonePostings } from "./bm25";
import {
  CONTEXT_FIELD_WEIGHT,
  CONTEXT_SHARE,
  type FreshVector,
  HYBRID_VECTOR_SHARE,
  type LexicalQuery,
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
 * (2.3× the floor for a 10k agent in a 130k-row table before; see ADR 0003).
 * `source`, when set, replaces `memories ${join} WHERE ${where}` in the caller's candidate CTE:
 * a CTE aliased `memories` that already holds exactly the candidates with the columns ranking
 * reads (id, kind, last_accessed_at, importance) and `rel`. Hybrid and contextual relevance scan
 * the candidates once for their fusion anyway; joining `memories` again cost ~15% at 11k.
 */
export type RelevanceSql = { ctes: SQL; join: SQL; expr: SQL; source?: SQL };

export function relevanceSql(
  agentId: string,
  vector: QueryVector | null,
  lexical: LexicalQuery | undefined,
  where: SQL | undefined,
  fresh: FreshVector[] = [],
  whole = false,
): RelevanceSql {
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
      ctes: sql`${f.cte}${lexHead(lexical.text)}${bm25Ctes(standalonePostings(where), lexStatsOf(where), 0)}`,
      join: sql`LEFT JOIN lex ON lex.id = memories.id`,
      expr: sql`coalesce(lex.score, 0)`,
    };
  }
  const a = lexical.vectorShare ?? HYBRID_VECTOR_SHARE;
  const fieldWeight = lexical.kind === "windowed" ? CONTEXT_FIELD_WEIGHT : 0;
  const fused = sql`${f.cte}${lexHead(lexical.text)}
    rel_base AS MATERIALIZED (${
      whole && vector
        ? wholeStreamBase(agentId, vector, where, fresh.length > 0)
        : sql`
      SELECT memories.id, memories.kind, memories.last_accessed_at, memories.importance,
        memories.created_at AS at, ${cosine} AS cos, ${lexicalColumns}
      FROM memories ${embeddings}
      WHERE ${where}`
    }
    ),${bm25Ctes(basePostings, sql`SELECT count(*)::float8 AS n, avg(dl)::float8 AS avgdl FROM rel_base`, fieldWeight)}
    rel_raw AS (
      SELECT r.id, r.kind, r.last_accessed_at, r.importance, r.at, r.cos, coalesce(lex.score, 0) AS bm25
      FROM rel_base r LEFT JOIN lex ON lex.id = r.id
    ),
    rel_fused AS (
      SELECT id, kind, last_accessed_at, importance, at,
        ${a}::float8 * ${minMaxOverSql("cos", 0)} + ${1 - a}::float8 * ${minMaxOverSql("bm25", 0)} AS rel FROM rel_raw
    ),`;
  if (lexical.kind === "hybrid") {
    return {
      ctes: fused,
      join: sql``,
      expr: sql`memories.rel`,
      source: sql`rel_fused AS memories`,
    };
  }
  // Neighbours in createdAt order (id breaks ties); the first and last memory have one neighbour.
  return {
    ctes: sql`${fused}
    rel_ctx AS (
      SELECT id, kind, last_accessed_at, importance,
        rel + ${CONTEXT_SHARE}::float8 * greatest(coalesce(lag(rel) OVER w, 0), coalesce(lead(rel) OVER w, 0)) AS rel
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
 * tables themselves carried every candidate's tsvector, the last column of a wide row, through the
 * join: the default statement at 11k memories takes 0.91× the time (median of paired runs;
 * docs/performance-history.md). With filters or a time window the join comes first (relevanceSql), so
 * only the candidates' cosines are computed. The cosine is the stored vector's, else the fresh one's.
 */
function wholeStreamBase(agentId: string, vector: QueryVector, where: SQL | undefined, fresh: boolean): SQL {
  const cos = fresh ? sql`coalesce(e.cos, ${cosineSql(sql`fresh.embedding`, vector)})` : sql`e.cos`;
  return sql`
      SELECT m.id, m.kind, m.last_accessed_at, m.importance, m.at, ${cos} AS cos, m.dl, m.v
      FROM (
        SELECT memories.id, memories.kind, memories.last_accessed_at, memories.importance,
          memories.created_at AS at, ${lexicalColumns}
        FROM memories WHERE ${where} OFFSET 0
      ) m LEFT JOIN (
        SELECT e.memory_id, ${cosineSql(sql`e.embedding`, vector)} AS cos FROM memory_embeddings e
        WHERE e.agent_id = ${agentId} AND e.model = ${vector.model} AND e.dimensions = ${vector.dimensions} OFFSET 0
      ) e ON e.memory_id = m.id ${fresh ? sql`LEFT JOIN fresh ON fresh.id = m.id` : sql``}`;
}
