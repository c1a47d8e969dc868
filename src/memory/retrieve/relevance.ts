import { type SQL, sql } from "drizzle-orm";
import type { FreshVector } from "./agent-state";

/**
 * Where relevance comes from: `vector` = cosine similarity to the query vector (the paper's);
 * `lexical` = BM25 of the query's words; `hybrid` = both, fused; `contextual` = hybrid plus a
 * share of the better of the memory's two neighbours in the stream (conversation context);
 * `windowed` = contextual whose lexical part is BM25F over the memory's and its neighbours' words.
 */
export type RelevanceKind = "vector" | "lexical" | "hybrid" | "contextual" | "windowed";
export const RELEVANCE_KINDS = [
  "vector",
  "lexical",
  "hybrid",
  "contextual",
  "windowed",
] as const satisfies RelevanceKind[];

/** The query vector as pgvector text, its model and dimension. */
export type QueryVector = { vector: string; model: string; dimensions: number };

/**
 * Lexical relevance needs the query's text; absent means `vector` relevance. `vectorShare` is
 * hybrid's α (default HYBRID_VECTOR_SHARE); a ranking may set its own (presets.ts).
 */
export type LexicalQuery = { kind: Exclude<RelevanceKind, "vector">; text: string; vectorShare?: number };

/**
 * BM25's usual constants (Robertson; Lucene's defaults). On LoCoMo dev other values within
 * k1 0.9–1.6, b 0.5–0.9 moved recall@10 by ≤ 0.01, so the textbook ones are kept.
 */
export const BM25 = { k1: 1.2, b: 0.75 } as const;

/**
 * Share of the vector part in hybrid relevance: α·cosine' + (1 − α)·lexical'. Measured on
 * LoCoMo dev (docs/adr/0008-hybrid-relevance.md); the request field `vectorShare` and the
 * presets may set another (ADR 0014).
 */
export const HYBRID_VECTOR_SHARE = 0.6;

/**
 * Contextual relevance: hybrid' + this share × max(hybrid' of the previous and the next memory
 * of the candidate set by createdAt). A turn that answers a question is often the reply to, or
 * followed by, the turn that names its subject. Measured on LoCoMo dev (docs/adr/0014).
 */
export const CONTEXT_SHARE = 0.7;

/**
 * Windowed relevance = contextual relevance whose lexical part is BM25F over the memory's text
 * and, with this weight, its two neighbours' text (bm25Ctes). On LoCoMo dev with the time filter
 * it lifts contextual's 0.781 recall@10 to 0.809 (held-out half 0.773 → 0.804); 0.35–1 are
 * within 0.003 (docs/adr/0008, third amendment). Not the default's: it ranks old facts that
 * share the question's words higher, and the knowledge-update margin shrinks (ADR 0014).
 */
export const CONTEXT_FIELD_WEIGHT = 0.5;

/** The text search configuration of `memories.description_tsv` (must match the migration). */
const TS_CONFIG = sql.raw("'english'::regconfig");

/**
 * The SQL pieces that give each candidate its raw relevance `rel`, for a ranking query of the
 * form `WITH ${ctes} cand AS (SELECT …, ${expr} AS rel FROM memories ${join} WHERE ${where})`.
 * The caller min-max scales `rel` over the candidate set like every other component.
 * - vector: cosine similarity; NULL (→ scaled 0) for a memory with no vector of the model.
 * - lexical: BM25 over the candidate set; 0 for a memory sharing no word with the query.
 * - hybrid: α·cos' + (1 − α)·bm25', each part min-max scaled over the candidates first
 *   (cos' = 0 without a vector; a part equal across candidates is 0.5), never NULL.
 * The vector join names the agent as a constant: a vector always belongs to its memory's agent
 * (store.ts copies it), and saying so lets the planner read only the agent's vectors through
 * `memory_embeddings (agent_id, model)` instead of every vector of the model in the table
 * (2.3× the floor for a 10k agent in a 130k-row table before; see ADR 0003).
 */
/**
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
  const cosine = vector ? sql`1 - (${f.embedding} <=> ${vector.vector}::vector)` : sql`NULL::float8`;
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
        ${a}::float8 * ${minMax("cos", 0)} + ${1 - a}::float8 * ${minMax("bm25", 0)} AS rel FROM rel_raw
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
 * docs/performance.md). With filters or a time window the join comes first (relevanceSql), so
 * only the candidates' cosines are computed. The cosine is the stored vector's, else the fresh one's.
 */
function wholeStreamBase(agentId: string, vector: QueryVector, where: SQL | undefined, fresh: boolean): SQL {
  const cos = fresh ? sql`coalesce(e.cos, 1 - (fresh.embedding <=> ${vector.vector}::vector))` : sql`e.cos`;
  return sql`
      SELECT m.id, m.kind, m.last_accessed_at, m.importance, m.at, ${cos} AS cos, m.dl, m.v
      FROM (
        SELECT memories.id, memories.kind, memories.last_accessed_at, memories.importance,
          memories.created_at AS at, ${lexicalColumns}
        FROM memories WHERE ${where} OFFSET 0
      ) m LEFT JOIN (
        SELECT e.memory_id, 1 - (e.embedding <=> ${vector.vector}::vector) AS cos FROM memory_embeddings e
        WHERE e.agent_id = ${agentId} AND e.model = ${vector.model} AND e.dimensions = ${vector.dimensions} OFFSET 0
      ) e ON e.memory_id = m.id ${fresh ? sql`LEFT JOIN fresh ON fresh.id = m.id` : sql``}`;
}

/**
 * Vectors embedded at retrieve time for memories that have none yet (agent-state.ts), as a
 * `fresh (id, embedding)` CTE joined on `idColumn`; `embedding` is the stored vector, else the
 * fresh one. Empty list: no CTE, no join, the stored vector alone (the query is unchanged).
 */
export function freshSql(fresh: FreshVector[], idColumn: string): { cte: SQL; join: SQL; embedding: SQL } {
  if (fresh.length === 0) return { cte: sql``, join: sql``, embedding: sql`e.embedding` };
  const rows = sql.join(
    fresh.map((v) => sql`(${v.id}, ${v.vector}::vector)`),
    sql`, `,
  );
  return {
    cte: sql`fresh (id, embedding) AS (VALUES ${rows}),`,
    join: sql`LEFT JOIN fresh ON fresh.id = ${sql.raw(idColumn)}`,
    embedding: sql`coalesce(e.embedding, fresh.embedding)`,
  };
}

/** Min-max over the whole CTE (NULLs ignored): NULL → `missing`, all equal → 0.5. */
const minMax = (col: string, missing: number) =>
  sql.raw(`CASE WHEN ${col} IS NULL THEN ${missing}
      WHEN max(${col}) OVER () > min(${col}) OVER ()
      THEN (${col} - min(${col}) OVER ()) / (max(${col}) OVER () - min(${col}) OVER ()) ELSE 0.5 END`);

/**
 * `lex_terms` (the query's lexemes: stop words dropped, stemmed), `lex_terms_a` (the same as an
 * array) and `lex_query` (their OR as a tsquery, which picks the memories whose postings are read).
 */
function lexHead(text: string): SQL {
  return sql`
    lex_terms AS (SELECT DISTINCT t FROM unnest(tsvector_to_array(to_tsvector(${TS_CONFIG}, ${text}))) t),
    lex_terms_a AS (SELECT array_agg(t) AS a FROM lex_terms),
    lex_query AS (
      -- The lexemes are already normalized, so they are quoted into a tsquery as they are.
      SELECT coalesce(string_agg('''' || replace(replace(t, '\\', '\\\\'), '''', '''''') || '''', ' | '), '')::tsquery AS q
      FROM lex_terms
    ),`;
}

/**
 * A memory's tsvector cut down to the query's lexemes, positions kept: every position of those
 * gets weight A, then only lexemes with an A position stay (all of ours are D: to_tsvector's).
 * Unnesting this instead of the whole tsvector (~16 lexemes a LoCoMo turn) halves the postings'
 * cost (29 → 15 ms for 1,400 matching memories); same lexemes, same position counts.
 */
const queryPostings = sql`ts_filter(setweight(setweight(memories.description_tsv, 'D'), 'A', (SELECT a FROM lex_terms_a)), '{a}')`;

/** A candidate's tsvector length (BM25's count and average length) and, if it matches, the query's postings. */
const lexicalColumns = sql`length(memories.description_tsv) AS dl,
        CASE WHEN memories.description_tsv @@ (SELECT q FROM lex_query) THEN ${queryPostings} END AS v`;

/** BM25's count and average length over the candidates, by a scan of their own (lexical only). */
const lexStatsOf = (where: SQL | undefined) =>
  sql`SELECT count(*)::float8 AS n, avg(length(memories.description_tsv))::float8 AS avgdl FROM memories WHERE ${where}`;

/** Postings (id, lexeme, tf, dl) of the query's words, by a scan of their own (lexical only). */
function standalonePostings(where: SQL | undefined): SQL {
  return sql`
      SELECT m.id, u.lexeme, greatest(cardinality(u.positions), 1)::float8 AS tf, m.dl::float8 AS dl
      FROM (SELECT memories.id, length(memories.description_tsv) AS dl, ${queryPostings} AS v
        FROM memories WHERE ${where} AND memories.description_tsv @@ (SELECT q FROM lex_query) OFFSET 0) m
      CROSS JOIN LATERAL unnest(m.v) u`;
}

/** Postings (id, lexeme, tf, dl) from `rel_base`, whose scan read them. */
const basePostings = sql`
      SELECT r.id, u.lexeme, greatest(cardinality(u.positions), 1)::float8 AS tf, r.dl::float8 AS dl
      FROM rel_base r CROSS JOIN LATERAL unnest(r.v) u WHERE r.v IS NOT NULL`;

/**
 * CTEs ending in `lex (id, score)`: Okapi BM25 of the query's lexemes, with document
 * frequencies, count and average length taken over the candidate set (this agent's memories
 * that pass the filters), so one agent's words never change another's ranking. Document length
 * = distinct lexemes. idf = ln(1 + (N − df + 0.5) / (df + 0.5)), which stays positive for
 * words in most memories (e.g. a speaker's name). `postings` yields (id, lexeme, tf, dl) for the
 * memories matching the query (lexHead's CTEs come first); `stats` yields (n, avgdl).
 *
 * `neighbourWeight` > 0 makes it BM25F with the memory's two neighbours in the candidate set (by
 * createdAt, id) as a second field: a lexeme's frequency is the memory's own plus that weight ×
 * the neighbours', before saturation, and so is the length; df counts the memories whose window
 * holds the lexeme. A turn that answers a question rarely repeats the words of the turn that
 * asked it (ADR 0008, third amendment). Then `rel_base` (the fused kinds') gives the windows.
 */
function bm25Ctes(postings: SQL, stats: SQL, neighbourWeight = 0): SQL {
  const { k1, b } = BM25;
  const w = neighbourWeight;
  const score = sql.raw(`
    lex_df AS (SELECT lexeme, count(*)::float8 AS df FROM lex_post GROUP BY lexeme),
    lex AS (
      SELECT p.id, sum(ln(1 + (s.n - f.df + 0.5) / (f.df + 0.5)) * p.tf * ${k1 + 1}::float8
        / (p.tf + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * p.dl / s.avgdl)) ORDER BY p.lexeme) AS score
      FROM lex_post p JOIN lex_df f USING (lexeme) CROSS JOIN lex_stats s
      GROUP BY p.id
    ),`);
  if (!(w > 0))
    return sql`
    lex_stats AS (${stats}),
    lex_post AS (${postings}
    ),${score}`;
  // Each own posting also counts, × w, for the memory before it and the one after it.
  return sql`
    lex_win AS MATERIALIZED (
      SELECT id, lag(id) OVER win AS prev, lead(id) OVER win AS next,
        dl::float8 + ${w}::float8 * (coalesce(lag(dl) OVER win, 0) + coalesce(lead(dl) OVER win, 0))::float8 AS dl
      FROM rel_base
      WINDOW win AS (ORDER BY at, id COLLATE "C")
    ),
    lex_stats AS (SELECT count(*)::float8 AS n, avg(dl) AS avgdl FROM lex_win),
    lex_own AS (${postings}
    ),
    lex_post AS (
      SELECT t.id, t.lexeme, sum(t.tf ORDER BY t.tf) AS tf, min(x.dl) AS dl
      FROM (
        SELECT id, lexeme, tf FROM lex_own
        UNION ALL SELECT x.next, o.lexeme, ${w}::float8 * o.tf FROM lex_own o JOIN lex_win x USING (id) WHERE x.next IS NOT NULL
        UNION ALL SELECT x.prev, o.lexeme, ${w}::float8 * o.tf FROM lex_own o JOIN lex_win x USING (id) WHERE x.prev IS NOT NULL
      ) t JOIN lex_win x ON x.id = t.id
      GROUP BY t.id, t.lexeme
    ),${score}`;
}
