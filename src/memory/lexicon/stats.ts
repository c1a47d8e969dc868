import { type SQL, sql } from "drizzle-orm";

/**
 * BM25's statistics of an agent's whole stream, read from the tables the triggers of migration
 * 0016 keep (docs/adr/0024-lexical-statistics.md) instead of a pass over the stream: summing an
 * agent's delta rows (at most a few dozen per key) gives exactly what a scan of its memories gives
 * in the same snapshot.
 */

/**
 * `n` (documents) and `avgdl` (mean distinct lexemes) of the agent's stream as one row, equal bit
 * for bit to `count(*)::float8` and `avg(length(description_tsv))::float8` over its memories:
 * Postgres's avg of an integer column is the numeric quotient of its sum and count, cast to
 * float8, and so is this. No memories: n 0, avgdl NULL (as avg over no rows).
 */
export const lexiconStatsSql = (agentId: string): SQL =>
  sql`SELECT coalesce(sum(docs), 0)::float8 AS n,
      (sum(length_sum)::numeric / nullif(sum(docs), 0)::numeric)::float8 AS avgdl
    FROM agent_lexicon WHERE agent_id = ${agentId}`;

/**
 * Document frequency of each lexeme in `lexemes` (a SQL expression of type text[]) among the
 * agent's memories, as rows (lexeme, df float8); a lexeme no memory holds has no row.
 */
export const lexemeFrequencySql = (agentId: string, lexemes: SQL): SQL =>
  sql`SELECT lexeme, sum(docs)::float8 AS df FROM agent_lexemes
    WHERE agent_id = ${agentId} AND lexeme = ANY(${lexemes}) GROUP BY lexeme HAVING sum(docs) > 0`;

/**
 * Ids and lexemes of the agent's memories that hold at least one of `lexemes` (text[]), through
 * the GIN index over (agent_id, description_tsv): the agent's postings of those lexemes only.
 */
export const lexicalCandidatesSql = (agentId: string, lexemes: SQL): SQL =>
  sql`SELECT m.id, m.description_tsv AS terms FROM memories m
    WHERE m.agent_id = ${agentId} AND m.description_tsv @@ (
      SELECT coalesce(string_agg(quote_literal(l), ' | '), '')::tsquery FROM unnest(${lexemes}) l
    )`;
