import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { type ExactPlan, exactPlan, type Plan, type StreamState } from "./plan";
import { type Depth, fastRank, useIndexPaths } from "./statements/fast";
import { fullRankQuery } from "./statements/full";
import { fusedRankQuery } from "./statements/fused";
import type { RankParams } from "./statements/params";
import { type PhaseSizes, phasedRankQuery } from "./statements/phased";
import { sectionRankQuery } from "./statements/sections";
import { thresholdRankQuery } from "./statements/threshold";

/**
 * How deep pruning statements read: the threshold statement's recency + importance list and its
 * relevance seeds, the fast search's first depths. Tests set small values to exercise pruning.
 */
export type Tuning = { listSize?: number; mostRelevant?: number; depth?: Depth; phases?: PhaseSizes };

/** What every statement returns per ranked memory besides the memory's own columns. */
export type ScoredRow = {
  id: string;
  score: number;
  sRecency: number;
  sImportance: number;
  sRelevance: number;
  /** The relevance before scaling (vector relevance: the cosine); NULL without one. */
  rawRelevance?: number | null;
  /** The score a version lift added (full statement with a lift only; ranking/versions.ts). */
  sLift?: number;
  /** Ranked right below its replacement (full statement with a `newer` lift; ranking/versions.ts). */
  superseded?: boolean;
  section?: number;
  /** How many memories the statement scored, the same on every row (a bigint, read as a string). */
  candidates: number | string;
  /** Threshold statement: false when its bound could not prune and every memory was scored. */
  pruned?: boolean;
};

/** The rows, the plan that produced them (a fast plan's fallback if the search gave up) and why. */
export type Ranked<R> = { rows: R[]; ran: Plan; reason: string };

/**
 * Runs a plan in the caller's transaction: its session settings, then its statement. A fast plan
 * whose search finds no certain round within its depth (or sees HNSW skip a vector) runs its
 * exact fallback instead, and says so.
 */
export async function runPlan<R extends ScoredRow>(
  tx: Pick<Db, "execute">,
  plan: Plan,
  p: RankParams,
  tuning: Tuning = {},
): Promise<Ranked<R>> {
  let exact: ExactPlan;
  if (plan.statement === "phased") {
    const sizes = tuning.phases ?? plan.sizes;
    const [, rows] = await Promise.all([
      usePhases(tx, sizes),
      queryRows<R>(tx, phasedRankQuery(p, plan.index, sizes)),
    ]);
    return { rows, ran: plan, reason: plan.reason };
  }
  if (plan.statement === "fast") {
    await useIndexPaths(tx);
    const found = await fastRank<R & { certain: boolean; missed: boolean }>(tx, p, plan.index, tuning.depth);
    if (found) return { rows: found.rows, ran: plan, reason: plan.reason };
    exact = plan.fallback;
  } else exact = plan;
  // Sent together: the connection pipelines them, one round trip instead of two; the settings
  // still run first, and the statement is planned after them.
  const [, rows] = await Promise.all([
    useExactScan(tx, exact.workers),
    queryRows<R>(tx, exactStatement(exact, p, tuning)),
  ]);
  const unpruned =
    (exact.statement === "threshold" || exact.statement === "fused") && rows[0]?.pruned === false;
  return {
    rows,
    ran: exact,
    reason: unpruned ? `${exact.reason}; the bound could not prune: every memory scored` : exact.reason,
  };
}

/** The exact plan retrieve would choose for `p` on a stream in `state`, and its SQL (benches, tests). */
export function exactStatementFor(
  p: RankParams,
  state: StreamState,
  tuning: Tuning = {},
): { plan: ExactPlan; sql: SQL } {
  const chosen = exactPlan(p, state);
  return { plan: chosen, sql: exactStatement(chosen, p, tuning) };
}

/** The SQL of an exact plan's statement. */
export function exactStatement(plan: ExactPlan, p: RankParams, tuning: Tuning = {}): SQL {
  switch (plan.statement) {
    case "sections":
      if (!p.sections) throw new Error("a sections plan needs sections");
      return sectionRankQuery({ ...p, sections: p.sections });
    case "threshold":
      return thresholdRankQuery(p, { listSize: tuning.listSize, mostRelevant: tuning.mostRelevant });
    case "fused":
      return fusedRankQuery(p, { listSize: tuning.listSize, mostRelevant: tuning.mostRelevant });
    case "full":
      return fullRankQuery(p);
  }
}

/**
 * Session settings for the exact statements, local to their transaction:
 * - JIT compiles for ~0.4 s once a plan looks costly (a 100k-row scan does); our statements are
 *   short and run on every agent step, so compiling never pays off.
 * - Parallel workers (`parallel`, a plan's `workers`, plan.ts) for the threshold statement and,
 *   for streams estimated at 50,000 memories or more, the whole-stream fused relevance statement;
 *   priced as free so the planner uses them where a relation is large enough to scan in parallel
 *   at all. The threshold statement's pass over every distance is then split across processes, as
 *   are the fused statement's scans of both tables (docs/adr/0020, docs/adr/0014). The planner
 *   cannot see this by itself: it prices a vector distance like an integer comparison. Every
 *   other statement runs serially: PostgreSQL 15 can only run a parallel left join by hashing the
 *   vector side, which copies every vector into the hash table (and spilled 200 MB to disk at
 *   100k inline vectors); serially the narrow memories side is hashed and vectors are read in
 *   place (docs/adr/0003). The fused statement reads its vectors' cosines in a subquery of their
 *   own (ranking/relevance/relevance.ts `wholeStreamBase`), so no vector reaches its join.
 * - work_mem for the join's hash and the candidate CTE (~20 MB at 100k), which spilled to
 *   temporary files at the default 4 MB.
 * - No merge joins: joining a few hundred candidates to the agent's distances (threshold.ts) by
 *   merge sorted every distance row by its text id (docs/adr/0003).
 * - Sorts, sequential scans and hash joins back on: a fast search that gave up turned them off.
 */
export async function useExactScan(tx: Pick<Db, "execute">, parallel = false): Promise<void> {
  const workers = parallel
    ? sql`set_config('max_parallel_workers_per_gather', '2', true), set_config('parallel_setup_cost', '0', true), set_config('parallel_tuple_cost', '0', true)`
    : sql`set_config('max_parallel_workers_per_gather', '0', true)`;
  await tx.execute(
    sql`SELECT set_config('jit', 'off', true), ${workers}, set_config('work_mem', '32MB', true), set_config('enable_mergejoin', 'off', true),
      set_config('enable_sort', 'on', true), set_config('enable_seqscan', 'on', true), set_config('enable_hashjoin', 'on', true)`,
  );
}

/**
 * Session settings for the phased statement, local to its transaction: no JIT (as useExactScan),
 * no parallel workers (it reads a few thousand rows by index), and HNSW returning the `vector`
 * nearest even when a time window filters them (pgvector's iterative scan; relaxed order is
 * enough, the seeds are a set).
 */
async function usePhases(tx: Pick<Db, "execute">, sizes: PhaseSizes): Promise<void> {
  const ef = String(Math.min(1_000, Math.max(40, sizes.vectorWide)));
  await tx.execute(
    sql`SELECT set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true),
      set_config('work_mem', '32MB', true), set_config('enable_mergejoin', 'off', true),
      set_config('hnsw.ef_search', ${ef}, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`,
  );
}
