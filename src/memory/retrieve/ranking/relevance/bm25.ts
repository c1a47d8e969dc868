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
export const lexicalColumns = sql`length(memories.description_tsv) AS dl,
        CASE WHEN memories.description_tsv @@ (SELECT q FROM lex_query) THEN ${queryPostings} END AS v`;

/** BM25's count and average length over the candidates, by a scan of their own (lexical only). */
export const lexStatsOf = (where: SQL | undefined) =>
  sql`SELECT count(*)::float8 AS n, avg(length(memories.description_tsv))::float8 AS avgdl FROM memories WHERE ${where}`;

/** Postings (id, lexeme, tf, dl) of the query's words, by a scan of their own (lexical only). */
export function standalonePostings(where: SQL | undefined): SQL {
  return sql`
      SELECT m.id, u.lexeme, greatest(cardinality(u.positions), 1)::float8 AS tf, m.dl::float8 AS dl
      FROM (SELECT memories.id, length(memories.description_tsv) AS dl, ${queryPostings} AS v
        FROM memories WHERE ${where} AND memories.description_tsv @@ (SELECT q FROM lex_query) OFFSET 0) m
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
 * `neighbourWeight` > 0 makes it BM25F with the memory's two neighbours in the candidate set (by
 * createdAt, id) as a second field: a lexeme's frequency is the memory's own plus that weight ×
 * the neighbours', before saturation, and so is the length; df counts the memories whose window
 * holds the lexeme. A turn that answers a question rarely repeats the words of the turn that
 * asked it (ADR 0008, third amendment). Then `rel_base` (the fused kinds') gives the windows.
 */
export function bm25Ctes(postings: SQL, stats: SQL, neighbourWeight = 0): SQL {
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
  // Each own posting also counts, × w, for the memory before it and the one after it, when
  // created within NEIGHBOUR_GAP_S of it (the same conversation).
  const gap = sql.raw(`interval '${NEIGHBOUR_GAP_S} seconds'`);
  return sql`
    lex_win AS MATERIALIZED (
      SELECT id, CASE WHEN near_prev THEN prev END AS prev, CASE WHEN near_next THEN next END AS next,
        dl::float8 + ${w}::float8 * (CASE WHEN near_prev THEN prev_dl ELSE 0 END + CASE WHEN near_next THEN next_dl ELSE 0 END)::float8 AS dl
      FROM (
        SELECT id, dl, lag(id) OVER win AS prev, lead(id) OVER win AS next,
          lag(dl) OVER win AS prev_dl, lead(dl) OVER win AS next_dl,
          coalesce(lag(at) OVER win >= at - ${gap}, false) AS near_prev,
          coalesce(lead(at) OVER win <= at + ${gap}, false) AS near_next
        FROM rel_base
        WINDOW win AS (ORDER BY at, id COLLATE "C")
      ) x
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
