import { type SQL, sql } from "drizzle-orm";
import {
  COMPONENT,
  COMPONENTS,
  type Component,
  importanceSql,
  type RecencyParams,
  recencySql,
} from "./components";

/**
 * How a raw value becomes comparable: min-max over the candidate set, x' = (x − lo) / (hi − lo).
 * A value missing (NULL) scales to its component's `missing`; a component equal across the
 * candidates (hi = lo, a single candidate included) scales to EQUAL. This file is the only
 * place a scaling is written; every statement, the fused relevance parts and the benches'
 * simulations use it (docs/adr/0023).
 */
export const EQUAL = 0.5;

/** `x` min-max scaled between the SQL expressions `lo` and `hi`; NULL → `missing`. */
export function minMaxSql(x: SQL, lo: SQL, hi: SQL, missing: number): SQL {
  return sql`CASE WHEN ${x} IS NULL THEN ${num(missing)} WHEN ${hi} > ${lo}
      THEN (${x} - ${lo}) / (${hi} - ${lo}) ELSE ${num(EQUAL)} END`;
}

/**
 * The raw value whose scaled value is `y`, for bounds `lo` < `hi` (the inverse of minMaxSql):
 * a pruning statement turns "scaled ≥ y" into "raw ≥ this", one comparison per row.
 */
export const unscaledSql = (y: SQL, lo: SQL, hi: SQL): SQL => sql`${lo} + ${y} * (${hi} - ${lo})`;

/** A component's raw value `x` scaled against the bounds row `b` (`b.<column>_lo`, `b.<column>_hi`). */
export function scaledSql(c: Component, x: SQL, b: string): SQL {
  const { lo, hi } = boundsOf(c, b);
  return minMaxSql(x, lo, hi, COMPONENT[c].missing);
}

/** The bound columns of component `c` in the bounds row `b`. */
export function boundsOf(c: Component, b: string): { lo: SQL; hi: SQL } {
  const col = COMPONENT[c].column;
  return { lo: sql.raw(`${b}.${col}_lo`), hi: sql.raw(`${b}.${col}_hi`) };
}

/**
 * Floors of the scaled range (docs/adr/0026): a component whose raw values spread less than its
 * floor is scaled over the floor instead, x' = (x − lo) / max(hi − lo, floor), so minutes of
 * recency or one point of importance are not stretched over the whole [0, 1]. Carried in the
 * bounds row: `<column>_hi` is then lo + max(hi − lo, floor) (hi itself when every value is equal,
 * which still scales to EQUAL), so every statement and every pruning bound scales alike.
 * 0 = plain min-max (the paper's).
 */
export type ScaleFloors = Partial<Record<Component, number>>;

/** The top of a component's scaled range: `hi`, or lo + floor when the values spread less. */
export function flooredHiSql(lo: SQL, hi: SQL, floor: number | undefined): SQL {
  if (!floor) return hi;
  return sql`CASE WHEN ${hi} > ${lo} THEN ${lo} + greatest(${hi} - ${lo}, ${num(floor)}) ELSE ${hi} END`;
}

/** `min(rec) AS rec_lo, max(rec) AS rec_hi, …` over candidate rows: the bounds row of every component (floored). */
export const boundsAggregateSql = (floors: ScaleFloors = {}): SQL =>
  sql.join(
    COMPONENTS.map((c) => {
      const col = COMPONENT[c].column;
      const hi = flooredHiSql(sql.raw(`min(${col})`), sql.raw(`max(${col})`), floors[c]);
      return sql`min(${sql.raw(col)}) AS ${sql.raw(`${col}_lo`)}, ${hi} AS ${sql.raw(`${col}_hi`)}`;
    }),
    sql`, `,
  );

/** Column `col` min-max scaled over every row of its query (window aggregates; NULLs ignored). */
export function minMaxOverSql(col: string, missing: number): SQL {
  return minMaxSql(sql.raw(col), sql.raw(`min(${col}) OVER ()`), sql.raw(`max(${col}) OVER ()`), missing);
}

/** The same scaling in TypeScript, over a list of raw values (NULL → `missing`), with an optional floor. */
export function minMax(xs: readonly (number | null)[], missing: number, floor = 0): number[] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const x of xs)
    if (x !== null) {
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
  const top = floor > 0 && hi > lo ? lo + Math.max(hi - lo, floor) : hi;
  return xs.map((x) => (x === null ? missing : top > lo ? (x - lo) / (top - lo) : EQUAL));
}

/** A constant inlined as a float8 literal (not a bind parameter: plans stay generic-friendly). */
const num = (n: number): SQL => sql.raw(`${n}::float8`);

/**
 * Exact recency and importance bounds over an agent's whole stream, from btree endpoints
 * (`rec_lo, rec_hi, imp_lo, imp_hi`, the tops floored as above). Recency falls as the last
 * access gets older, so its bounds are those of the oldest and newest access.
 */
export function streamBoundsSql(
  p: RecencyParams & { floors?: Partial<Record<Component, number>> },
  agentId: string,
): SQL {
  const endpoint = (agg: "min" | "max", column: string) =>
    sql`(SELECT ${sql.raw(agg)}(${sql.raw(column)}) FROM memories WHERE agent_id = ${agentId})`;
  const recLo = recencySql(p, endpoint("min", "last_accessed_at"));
  const recHi = recencySql(p, endpoint("max", "last_accessed_at"));
  const impLo = importanceSql(endpoint("min", "importance"));
  const impHi = importanceSql(endpoint("max", "importance"));
  return sql`${recLo} AS rec_lo, ${flooredHiSql(recLo, recHi, p.floors?.recency)} AS rec_hi,
        ${impLo} AS imp_lo, ${flooredHiSql(impLo, impHi, p.floors?.importance)} AS imp_hi`;
}
