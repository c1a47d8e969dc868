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
