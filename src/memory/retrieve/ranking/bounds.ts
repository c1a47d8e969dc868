import { type SQL, sql } from "drizzle-orm";
import type { Component, Weights } from "./components";
import { boundsOf, EQUAL, scaledSql, unscaledSql } from "./scale";
import { weightedSumSql } from "./score";

/**
 * What pruning statements (the exact threshold statement, the fast threshold search) need to
 * leave a memory out without scoring it, derived from the score's own definition (score.ts,
 * scale.ts), as Lucene's WAND takes its upper bounds from the Similarity that scores:
 * - the *listed* score b = the weighted sum over the components a sorted list can be read by
 *   (recency and importance: each importance level's memories, newest first, by btree);
 * - a memory in neither list has b ≤ the list's last b (`bm`) and relevance ≤ a bound, so it
 *   scores at most `bm + w_v · rel'(bound)`;
 * - the least raw relevance that could still reach a k-th score (one comparison per row).
 * Every weight is ≥ 0 here (the planner sends negative weights to the full statement): the
 * bounds rely on the score growing with each component.
 */

/** Components a sorted list is read by; relevance comes from the distances or HNSW. */
export const LISTED = ["recency", "importance"] as const satisfies Component[];

/**
 * Slack for float rounding: a memory is left out only if it trails the k-th score by more than
 * this, and a search stops only when the k-th score beats its bound by more than this.
 */
export const PRUNE_EPS = 1e-9;
const eps = sql.raw(`${PRUNE_EPS}::float8`);

/** b: the listed components' part of the score, from their raw values, against the bounds row `b`. */
export function listedScoreSql(w: Weights, raw: Record<(typeof LISTED)[number], SQL>, b: string): SQL {
  return weightedSumSql(w, {
    recency: scaledSql("recency", raw.recency, b),
    importance: scaledSql("importance", raw.importance, b),
  });
}

/** A memory's whole score from its raw values (rec, imp, rel), against the bounds row `b`. */
export function scoreOfRawSql(w: Weights, raw: Record<Component, SQL>, b: string): SQL {
  return weightedSumSql(w, {
    recency: scaledSql("recency", raw.recency, b),
    importance: scaledSql("importance", raw.importance, b),
    relevance: scaledSql("relevance", raw.relevance, b),
  });
}

/** The best score of a memory whose listed score is at most `bm` and raw relevance at most `rel`. */
export function unseenBoundSql(w: Weights, bm: SQL, rel: SQL, b: string): SQL {
  return sql`${bm} + ${weightedSumSql(w, { relevance: scaledSql("relevance", rel, b) })}`;
}

/** Whether such a memory can still reach the k-th score `kth` (within the rounding slack). */
export function canReachSql(w: Weights, bm: SQL, rel: SQL, kth: SQL, b: string): SQL {
  return sql`${unseenBoundSql(w, bm, rel, b)} >= ${kth} - ${eps}`;
}

/** Whether the k-th score `kth` is certain to beat a bound (nothing below the bound can pass it). */
export const beatsSql = (kth: SQL, bound: SQL): SQL => sql`${kth} > ${bound} + ${eps}`;

/**
 * canReachSql solved for the raw relevance once: memories with raw relevance ≥ this (and listed
 * score ≤ `bm`) can reach `kth`. Loosened by far more than the rounding of either form (1e-9 of
 * the scores' magnitude, in relevance units), so it lets a few more memories through, never
 * fewer; an exact canReachSql test follows it. ±Infinity when the test is the same for every
 * memory; -Infinity (everything passes) when a NaN cosine (a zero vector) makes relevance NaN.
 */
export function relevanceCutSql(w: Weights, bm: SQL, kth: SQL, b: string): SQL {
  const { lo, hi } = boundsOf("relevance", b);
  const wv = sql`${w.relevance}::float8`;
  const need = sql`(${kth} - ${eps} - ${bm}) / ${wv}`;
  return sql`CASE
          WHEN ${kth} = '-Infinity'::float8 THEN '-Infinity'::float8
          WHEN ${bm} = '-Infinity'::float8 THEN 'Infinity'::float8
          WHEN ${hi} = 'NaN'::float8 OR ${lo} = 'NaN'::float8 THEN '-Infinity'::float8
          WHEN ${wv} > 0 AND ${hi} > ${lo}
            THEN ${unscaledSql(need, lo, hi)} - 1e-9 * (${hi} - ${lo}) * (1 + abs(${kth}) + abs(${bm})) / ${wv} - 1e-12
          -- Relevance scales to EQUAL for every memory with a vector, or does not count.
          WHEN ${weightedSumSql(w, { relevance: sql.raw(`${EQUAL}::float8`) })} + ${bm} >= ${kth} - ${eps}
            THEN '-Infinity'::float8
          ELSE 'Infinity'::float8 END`;
}
