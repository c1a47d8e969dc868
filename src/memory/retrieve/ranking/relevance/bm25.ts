import { type SQL, sql } from "drizzle-orm";
import { BM25, NEIGHBOUR_GAP_S } from "./kinds";

/** The text search configuration of `memories.description_tsv` (must match the migration). */
const TS_CONFIG = sql.raw("'english'::regconfig");

/**
 * `lex_terms` (the query's lexemes: stop words dropped, stemmed), `lex_terms_a` (the same as an
 * array) and `lex_query` (their OR as a tsquery, which picks the memories whose postings are read).
 */
export function lexHead(text: string): SQL {
  return sql`
    lex_terms AS (SELECT DISTINCT t FROM unnest(tsvector_to_array(to_tsvector(${TS_CONFIG}, ${text}))) t),
    lex_terms_a AS (SELECT array_agg(t) AS a FROM lex_terms),
    lex_query AS (
      -- The lexemes are already normalized, so they are quoted into a tsquery as they are.
      SELECT coalesce(string_agg(${sql.raw(quotedLexeme("t"))}, ' | '), '')::tsquery AS q
      FROM lex_terms
    ),`;
}

/**
 * The lexical index's match (migration 0024): `alias`'s memory holds the keys (`@>`) or one of
 * them (`&&`), a text[] of agentLexemeKey's, read from the agent's own postings. agent_id is still
 * compared (a key is a hash prefix), which Citus's router also needs.
 */
export const agentLexemesMatch = (alias: string, agentId: string, op: "@>" | "&&", keys: SQL): SQL =>
  sql`memstream_agent_lexemes(${sql.raw(`${alias}.agent_id, ${alias}.description_tsv`)}) ${sql.raw(op)} ${keys}
    AND ${sql.raw(alias)}.agent_id = ${agentId}`;

/** A lexeme as the lexical index keys it for `agentId` (migration 0024). */
export const agentLexemeKey = (agentId: string, lexeme: SQL): SQL =>
  sql`memstream_agent_lexeme(${agentId}, ${lexeme})`;

/** A lexeme column quoted as a tsquery term, as it is (lexemes are already normalized). */
export const quotedLexeme = (column: string): string =>
  String.raw`'''' || replace(replace(${column}, '\', '\\'), '''', '''''') || ''''`;

/** BM25's idf of a lexeme in `df` of `n` documents: ln(1 + (n − df + 0.5) / (df + 0.5)). */
export const bm25IdfSql = (n: string, df: string): string => `ln(1 + (${n} - ${df} + 0.5) / (${df} + 0.5))`;

/** One lexeme's BM25 term: idf · tf·(k1 + 1) / (tf + k1·(1 − b + b·dl / avgdl)). */
export function bm25TermSql(idf: string, tf: string, dl: string, avgdl: string): string {
  const { k1, b } = BM25;
  return `${idf} * ${tf} * ${k1 + 1}::float8 / (${tf} + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * ${dl} / ${avgdl}))`;
}

/**
 * A memory's tsvector cut down to the query's lexemes, positions kept: every position of those
 * gets weight A, then only lexemes with an A position stay (all of ours are D: to_tsvector's).
 * Unnesting this instead of the whole tsvector halves the postings' cost; same lexemes, same
 * position counts.
 */
const queryPostings = sql`ts_filter(setweight(setweight(memories.description_tsv, 'D'), 'A', (SELECT a FROM lex_terms_a)), '{a}')`;

/** A candidate's tsvector length (BM25's count and average length) and, if it matches, the query's postings. */
export const lexicalColumns = sql`length(memories.description_tsv) AS dl,
        CASE WHEN memories.description_tsv @@ (SELECT q FROM lex_query) THEN ${queryPostings} END AS v`;

/** BM25's count and average length over the candidates, by a scan of their own (lexical only). */
export const lexStatsOf = (where: SQL | undefined) =>
  sql`SELECT count(*)::float8 AS n, avg(length(memories.description_tsv))::float8 AS avgdl FROM memories WHERE ${where}`;

/** Postings (id, lexeme, tf, dl) of the query's words, from the lexical index (lexical relevance, threshold statement). */
export function standalonePostings(agentId: string, where: SQL | undefined): SQL {
  return sql`
      SELECT m.id, u.lexeme, greatest(cardinality(u.positions), 1)::float8 AS tf, m.dl::float8 AS dl
      FROM (SELECT memories.id, length(memories.description_tsv) AS dl, ${queryPostings} AS v
        FROM memories WHERE ${where} AND ${agentLexemesMatch("memories", agentId, "&&", sql`(SELECT array_agg(${agentLexemeKey(agentId, sql`t`)}) FROM lex_terms)`)} OFFSET 0) m
      CROSS JOIN LATERAL unnest(m.v) u`;
}

/** Postings (id, lexeme, tf, dl) from `rel_base`, whose scan read them. */
export const basePostings = sql`
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
 * `neighbourWeights` (weight of the memory 1, 2, … places away; empty = plain BM25) makes it
 * BM25F with the memory's neighbours in the candidate set (by createdAt, id) as a second field: a
 * lexeme's frequency is the memory's own plus each neighbour's × its weight, before saturation,
 * and so is the length; df counts the memories whose window holds the lexeme. Neighbours are
 * those of the same run (each memory created within NEIGHBOUR_GAP_S of the one before: the same
 * conversation). A turn that answers a question rarely repeats the words of the turn that asked
 * it, nor those that named the subject a few turns earlier (docs/adr/0008, docs/adr/0026).
 * Then `rel_base` (the fused kinds') gives the windows.
 */
export function bm25Ctes(postings: SQL, stats: SQL, neighbourWeights: readonly number[] = []): SQL {
  const score = sql.raw(`
    lex_df AS (SELECT lexeme, count(*)::float8 AS df FROM lex_post GROUP BY lexeme),
    lex AS (
      SELECT p.id, sum(${bm25TermSql(bm25IdfSql("s.n", "f.df"), "p.tf", "p.dl", "s.avgdl")} ORDER BY p.lexeme) AS score
      FROM lex_post p JOIN lex_df f USING (lexeme) CROSS JOIN lex_stats s
      GROUP BY p.id
    ),`);
  if (neighbourWeights.length === 0)
    return sql`
    lex_stats AS (${stats}),
    lex_post AS (${postings}
    ),${score}`;
  // Runs: a memory created more than NEIGHBOUR_GAP_S after the one before starts a new run; `pos`
  // is its place in createdAt order, [lo, hi] its run's places. The window's length is the own
  // length plus each neighbour's of the run × its weight, nearest first. Each own posting counts
  // for its memory (× 1) and, × the weight, for every memory of its run up to
  // neighbourWeights.length places away: the postings (one per matching memory and query lexeme)
  // are expanded by those offsets and joined to the window rows on the place, so the expansion
  // is the matching memories × (2·reach + 1), never the whole stream × offsets.
  const gap = sql.raw(`interval '${NEIGHBOUR_GAP_S} seconds'`);
  const f8 = (x: number) => `${x}::float8`;
  const lengths = neighbourWeights
    .map(
      (w, i) =>
        ` + ${f8(w)} * (CASE WHEN pos - ${i + 1} >= lo THEN lag(dl, ${i + 1}) OVER w ELSE 0 END
          + CASE WHEN pos + ${i + 1} <= hi THEN lead(dl, ${i + 1}) OVER w ELSE 0 END)::float8`,
    )
    .join("");
  const offsets = [
    "(0, 1::float8)",
    ...neighbourWeights.flatMap((w, i) => [`(${-(i + 1)}, ${f8(w)})`, `(${i + 1}, ${f8(w)})`]),
  ].join(", ");
  return sql`
    lex_win AS MATERIALIZED (
      SELECT id, pos, lo, hi, dl::float8${sql.raw(lengths)} AS dl
      FROM (
        SELECT id, dl, pos, min(pos) OVER r AS lo, max(pos) OVER r AS hi
        FROM (
          SELECT id, dl, pos, sum(starts) OVER (ORDER BY pos) AS run
          FROM (
            SELECT id, dl, row_number() OVER o AS pos,
              CASE WHEN lag(at) OVER o >= at - ${gap} THEN 0 ELSE 1 END AS starts
            FROM rel_base
            WINDOW o AS (ORDER BY at, id COLLATE "C")
          ) x
        ) y
        WINDOW r AS (PARTITION BY run)
      ) z
      WINDOW w AS (ORDER BY pos)
    ),
    lex_stats AS (SELECT count(*)::float8 AS n, avg(dl) AS avgdl FROM lex_win),
    lex_own AS (${postings}
    ),
    lex_src AS MATERIALIZED (SELECT o.lexeme, o.tf, x.pos, x.lo, x.hi FROM lex_own o JOIN lex_win x USING (id)),
    lex_post AS (
      SELECT y.id, s.lexeme, sum(d.w * s.tf ORDER BY d.w * s.tf) AS tf, min(y.dl) AS dl
      FROM lex_src s CROSS JOIN (VALUES ${sql.raw(offsets)}) d(k, w)
        JOIN lex_win y ON y.pos = s.pos + d.k
      WHERE s.pos + d.k BETWEEN s.lo AND s.hi
      GROUP BY y.pos, y.id, s.lexeme
    ),${score}`;
}
