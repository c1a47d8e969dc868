import { type SQL, sql } from "drizzle-orm";
import type { FreshVector, QueryVector } from "./kinds";

/** Cosine similarity of a vector expression to the query vector (pgvector's `<=>` is 1 − cosine). */
export const cosineSql = (embedding: SQL, q: QueryVector): SQL =>
  sql`1 - (${embedding} <=> ${q.vector}::vector)`;

/**
 * The negated vector in pgvector text form: its nearest is the query vector's farthest (cosine
 * distance), the least relevance an index walk can find.
 */
export function negatedVector(vector: string): string {
  const xs = vector.slice(1, -1).split(",");
  return `[${xs.map((x) => (x.startsWith("-") ? x.slice(1) : `-${x}`)).join(",")}]`;
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
