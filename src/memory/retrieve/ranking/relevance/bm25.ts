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
 * `neighbourWeights` (weight of the memory 1, 2, … places away; empty = plain BM25) makes it
 * BM25F with the memory's neighbours in the candidate set (by createdAt, id) as a second field: a
 * lexeme's frequency is the memory's own plus each neighbour's × its weight, before saturation,
 * and so is the length; df counts the memories whose window holds the lexeme. Neighbours are
 * those of the same run (each memory created within NEIGHBOUR_GAP_S of the one before: the same
 * conversation). A turn that answers a question rarely repeats the words of the turn that asked
 * it, nor those that named the subject a few turns earlier (ADR 0008, third amendment; ADR 0026,
 * "A wider window"). Then `rel_base` (the fused kinds') gives the windows.
 */
export function bm25Ctes(postings: SQL, stats: SQL, neighbourWeights: readonly number[] = []): SQL {
  const { k1, b } = BM25;
  const score = sql.raw(`
    lex_df AS (SELECT lexeme, count(*)::float8 AS df FROM lex_post GROUP BY lexeme),
    lex AS (
      SELECT p.id, sum(ln(1 + (s.n - f.df + 0.5) / (f.df + 0.5)) * p.tf * ${k1 + 1}::float8
        / (p.tf + ${k1}::float8 * (1 - ${b}::float8 + ${b}::float8 * p.dl / s.avgdl)) ORDER BY p.lexeme) AS score
      FROM lex_post p JOIN lex_df f USING (lexeme) CROSS JOIN lex_stats s
      GROUP BY p.id
    ),`);
  if (neighbourWeights.length === 0)
    return sql`
    lex_stats AS (${stats}),
    lex_post AS (${postings}
    ),${score}`;
  // Runs: a memory created more than NEIGHBOUR_GAP_S after the one before starts a new run. The
  // window's length is the own length plus each neighbour's of the same run × its weight, nearest
  // first; `near` lists those neighbours' ids (null past the run's ends): 1 place before, 1 after,
  // 2 before, …, so each own posting also counts, × the weight, for every memory of its run up to
  // neighbourWeights.length places away. Expanding the postings from their own row keeps the
  // expansion to the matching memories × 2·reach (a join on positions expanded every memory and
  // cost 2.6× ±1's time at 10k).
  const gap = sql.raw(`interval '${NEIGHBOUR_GAP_S} seconds'`);
  const f8 = (x: number) => `${x}::float8`;
  const reach = neighbourWeights.length;
  // The frame's arrays hold the memories up to `reach` places before and after, the own one at
  // `me` (the frame is cut short only before the stream's first memories).
  const at = (d: number) => `me ${d < 0 ? "-" : "+"} ${Math.abs(d)}`;
  const sides = neighbourWeights.flatMap((w, i) => [
    { d: -(i + 1), w },
    { d: i + 1, w },
  ]);
  const lengths = sides
    .map(({ d, w }) => ` + CASE WHEN runs[${at(d)}] = run THEN ${f8(w)} * dls[${at(d)}] ELSE 0 END`)
    .join("");
  const ids = sides.map(({ d }) => `CASE WHEN runs[${at(d)}] = run THEN ids[${at(d)}] END`).join(", ");
  const weights = sides.map(({ w }) => f8(w)).join(", ");
  return sql`
    lex_win AS MATERIALIZED (
      SELECT id, dl::float8${sql.raw(lengths)} AS dl, ARRAY[${sql.raw(ids)}] AS near
      FROM (
        SELECT id, dl, run, least(row_number() OVER w, ${reach + 1}) AS me,
          array_agg(id) OVER f AS ids, array_agg(run) OVER f AS runs, array_agg(dl::float8) OVER f AS dls
        FROM (
          SELECT id, dl, at, sum(starts) OVER (ORDER BY at, id COLLATE "C") AS run
          FROM (
            SELECT id, dl, at, CASE WHEN lag(at) OVER (ORDER BY at, id COLLATE "C") >= at - ${gap} THEN 0 ELSE 1 END AS starts
            FROM rel_base
          ) x
        ) y
        WINDOW w AS (ORDER BY at, id COLLATE "C"), f AS (w ROWS BETWEEN ${sql.raw(String(reach))} PRECEDING AND ${sql.raw(String(reach))} FOLLOWING)
      ) z
    ),
    lex_stats AS (SELECT count(*)::float8 AS n, avg(dl) AS avgdl FROM lex_win),
    lex_own AS MATERIALIZED (${postings}
    ),
    lex_src AS MATERIALIZED (SELECT o.lexeme, o.tf, x.near FROM lex_own o JOIN lex_win x USING (id)),
    lex_post AS (
      SELECT t.id, t.lexeme, sum(t.tf ORDER BY t.tf) AS tf, min(x.dl) AS dl
      FROM (
        SELECT id, lexeme, tf FROM lex_own
        UNION ALL
        SELECT n.id, o.lexeme, n.w * o.tf
        FROM lex_src o CROSS JOIN LATERAL unnest(o.near, ARRAY[${sql.raw(weights)}]) n(id, w)
        WHERE n.id IS NOT NULL
      ) t JOIN lex_win x ON x.id = t.id
      GROUP BY t.id, t.lexeme
    ),${score}`;
}
