import { type SQL, sql } from "drizzle-orm";
// A cycle (scale.ts reads COMPONENT), used only inside functions, so either module may load first.

/**
 * The ranking's components (Park et al. 2023): what each one's raw value is, and what a memory
 * without one scales to. Every ranking statement computes the raw values with these functions,
 * scales them with scale.ts and sums them with score.ts; pruning statements take their bounds
 * from bounds.ts. Adding a component is an entry here plus its raw SQL (docs/adr/0023).
 */
export type Component = "recency" | "importance" | "relevance";

/** In the order they are summed (the float8 sum is the same in every statement). */
export const COMPONENTS = ["recency", "importance", "relevance"] as const satisfies Component[];

export type Weights = Record<Component, number>;

export type ComponentDef = {
  /** Column of the raw value in a candidate row; its bounds are `<column>_lo` and `<column>_hi`. */
  column: string;
  /** The scaled value of a candidate whose raw value is NULL. */
  missing: number;
};

export const COMPONENT: Record<Component, ComponentDef> = {
  // Every memory has a last access, so never NULL.
  recency: { column: "rec", missing: 0 },
  // Importance not scored yet (pending or failed) is neutral.
  importance: { column: "imp", missing: 0.5 },
  // No vector of the query's model (pending, failed, another model) is the least relevant.
  relevance: { column: "rel", missing: 0 },
};

/** Seconds in each unit recency's decay can be expressed per: recency = decay^(age / unit). */
export const RECENCY_UNITS = { minute: 60, hour: 3_600, day: 86_400, week: 604_800 } as const;
export type RecencyUnit = keyof typeof RECENCY_UNITS;

/** What recency depends on besides the memory: the decay per unit, the unit, and "now". */
export type RecencyParams = { decay: number; recencyUnit?: RecencyUnit; now: Date };

/**
 * Raw recency of a last-access column: decay^(units since access, ≥ 0), all in float8.
 * `date_part` returns float8; `extract` returns numeric since PG14, and numeric arithmetic
 * on every row cost ~45 ms per 100k memories. The two differ by at most one ulp.
 * Postgres raises on float8 underflow instead of rounding to 0 (0.99^h does past ~8 years), so
 * the units are capped where decay^units reaches e^-600: older memories tie at that floor.
 */
export function recencySql(p: RecencyParams, column: SQL): SQL {
  const unit = sql.raw(String(RECENCY_UNITS[p.recencyUnit ?? "hour"]));
  return sql`power(${p.decay}::float8, least(greatest(date_part('epoch', ${p.now.toISOString()}::timestamptz - ${column}) / ${unit}, 0), ${maxRecencyUnits(p.decay)}::float8))`;
}

/** Units after which decay^units would fall below e^-600 (no cap for decay 1). */
export function maxRecencyUnits(decay: number): number {
  return decay < 1 ? RECENCY_FLOOR_EXPONENT / -Math.log(decay) : Number.MAX_VALUE;
}
const RECENCY_FLOOR_EXPONENT = 600;

/** Raw importance of an importance column (1–10, NULL while not scored). */
export const importanceSql = (column: SQL): SQL => sql`${column}::float8`;

/**
 * Floors of the scaled ranges when a ranking asks for them (`scaleFloors`, docs/adr/0026):
 * recency spread less than the decay over RECENCY_FLOOR_UNITS units (a month, with the default's
 * daily unit), importance spread less than IMPORTANCE_FLOOR_POINTS points, are scaled over the
 * floor. A fresh stream of ten memories written over a few minutes then differs by a sliver of
 * recency instead of the whole [0, 1], and importances 5 and 6 by a fifth instead of all of it.
 */
export const RECENCY_FLOOR_UNITS = 30;
export const IMPORTANCE_FLOOR_POINTS = 5;

/** The raw-range floors (scale.ts) of a ranking with floors on, for its decay. */
export function scaleFloorsOf(decay: number): { recency: number; importance: number } {
  return { recency: 1 - decay ** RECENCY_FLOOR_UNITS, importance: IMPORTANCE_FLOOR_POINTS };
}
