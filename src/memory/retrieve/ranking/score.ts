import { type SQL, sql } from "drizzle-orm";
import { COMPONENT, COMPONENTS, type Component, type Weights } from "./components";
import { scaledSql } from "./scale";

/**
 * The score: score = Σ w_c · c' over the components, in COMPONENTS order. This file is the only
 * place the weighted sum is written (bounds.ts sums a subset of the components with it).
 */

export type Scaled<T> = Record<Component, T>;

/**
 * Σ w_c · scaled_c in SQL over the components given (all of them for a score; a subset for the
 * partial sums pruning bounds need), in COMPONENTS order, each weight a float8 parameter.
 */
export function weightedSumSql(w: Weights, scaled: Partial<Scaled<SQL>>): SQL {
  return sql.join(
    COMPONENTS.flatMap((c) => {
      const s = scaled[c];
      return s ? [sql`${w[c]}::float8 * ${s}`] : [];
    }),
    sql` + `,
  );
}

/** Σ w_c · scaled_c in TypeScript, in the same order as the SQL (so the float sums agree). */
export function weightedSum(w: Weights, scaled: Scaled<number>): number {
  let s = 0;
  for (const c of COMPONENTS) s += w[c] * scaled[c];
  return s;
}

/**
 * Each component of the candidate row `c` (raw columns `c.rec`, `c.imp`, `c.rel`) scaled against
 * the bounds row `b`, as SQL expressions.
 */
export function scaledOf(c: string, b: string): Scaled<SQL> {
  const of = (k: Component) => scaledSql(k, sql.raw(`${c}.${COMPONENT[k].column}`), b);
  return { recency: of("recency"), importance: of("importance"), relevance: of("relevance") };
}

/**
 * `<scaled recency> AS recency, …`: the scaled components of candidate `c` as columns named after
 * them, and its raw relevance as `raw_relevance` (vector relevance: the cosine similarity).
 */
export function scaledColumnsSql(c: string, b: string): SQL {
  const s = scaledOf(c, b);
  return sql`${sql.join(
    COMPONENTS.map((k) => sql`${s[k]} AS ${sql.raw(k)}`),
    sql`, `,
  )}, ${sql.raw(`${c}.${COMPONENT.relevance.column}`)} AS raw_relevance`;
}

/** The weighted sum of the columns scaledColumnsSql named (optionally qualified by `alias`). */
export function scoreOfColumnsSql(w: Weights, alias?: string): SQL {
  const col = (k: Component) => sql.raw(alias ? `${alias}.${k}` : k);
  return weightedSumSql(w, {
    recency: col("recency"),
    importance: col("importance"),
    relevance: col("relevance"),
  });
}
