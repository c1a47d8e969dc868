/**
 * The fast path alone against one existing dataset: p50/p99 and recall@10 against the exact
 * ranking, for a few queries from the retrieval bench's generator.
 *   npx tsx bench/explore/fast-path.ts --db memstream_bench_1000000_512 [--dist clustered] [--queries 20]
 *     [--agent bench-main] [--runs 2] [--explain]
 * Exact answers (seconds each at 1M) are computed once per (db, agent, model, queries) at a fixed
 * `now` and cached in bench/results/fast-path-exact-<db>-<dist>-<agent>.json (recomputed when
 * the agent's latest access moved, e.g. after the retrieval bench's touch); delete it after
 * changing the dataset or the exact query. Never creates or changes a dataset.
 * FAST_DEPTH=relevance,recImp sets the first round's depths.
 */
import { existsSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "../../src/db/client";
import { exactStatementFor } from "../../src/memory/retrieve/execute";
import { findHnswIndex } from "../../src/memory/retrieve/hnsw-index";
import {
  type Depth,
  fastRank,
  fastRankQuery,
  firstDepth,
  useIndexPaths,
} from "../../src/memory/retrieve/statements/fast";
import type { RankParams } from "../../src/memory/retrieve/statements/params";
import { MAIN, modelOf } from "../lib/dataset";
import { queryVectors } from "../lib/queries";
import { quantile, writeResults } from "../lib/stats";

const { values: a } = parseArgs({
  options: {
    db: { type: "string", default: "memstream_bench_1000000_512" },
    dist: { type: "string", default: "clustered" },
    agent: { type: "string", default: MAIN },
    queries: { type: "string", default: "20" },
    runs: { type: "string", default: "2" },
    explain: { type: "boolean", default: false },
    plan: { type: "boolean", default: false },
  },
});
const dims = Number(/_(\d+)$/.exec(a.db)?.[1] ?? 512);
const model = modelOf(dims, a.dist);
const count = Number(a.queries);
const url = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
url.pathname = `/${a.db}`;
const database = await openDatabase({ url: url.toString(), dataDir: "", poolSize: 2 });
// Schema migrations only (as the retrieval bench does); the data and the HNSW index are left alone.
await database.migrate();
const db = database.db;
const index = await findHnswIndex(db, model, dims);
if (!index) throw new Error(`no HNSW index for ${model} in ${a.db}`);
const vectors = await queryVectors(db, a.agent, model, dims, a.dist, count);

type Cache = { now: string; exact: string[][]; lastAccess?: string };
const cacheName = `fast-path-exact-${a.db}-${a.dist}-${a.agent}`;
const cachePath = new URL(`results/${cacheName}.json`, import.meta.url).pathname;
let cache: Cache | null = existsSync(cachePath)
  ? (JSON.parse(readFileSync(cachePath, "utf8")) as Cache)
  : null;
// The retrieval bench's touch moves last accesses, which changes the exact answers: recompute then.
const [{ lastAccess } = { lastAccess: "" }] = await queryRows<{ lastAccess: string }>(
  db,
  sql`SELECT max(last_accessed_at)::text AS "lastAccess" FROM memories WHERE agent_id = ${a.agent}`,
);
if (cache && (cache.exact.length < count || cache.lastAccess !== lastAccess)) cache = null;
const now = new Date(cache?.now ?? new Date().toISOString());
/** The exact statement retrieve runs for a large whole stream (the threshold statement). */
const exactSql = (p: RankParams) => exactStatementFor(p, { small: false, large: false }).sql;
const params = (i: number): RankParams => ({
  agentId: a.agent,
  filters: {},
  query: { vector: vectors[i] as string, model, dimensions: dims },
  now,
  decay: 0.99,
  weights: { recency: 1, importance: 1, relevance: 1 },
  k: 10,
  touch: false,
});
if (!cache) {
  const exact: string[][] = [];
  for (let i = 0; i < count; i++) {
    const rows = await db.transaction(async (tx) => {
      await tx.execute(
        sql`SELECT set_config('jit', 'off', true), set_config('max_parallel_workers_per_gather', '0', true), set_config('work_mem', '32MB', true)`,
      );
      return queryRows<{ id: string }>(tx, exactSql(params(i)));
    });
    exact.push(rows.map((r) => r.id));
    process.stdout.write(".");
  }
  cache = { now: now.toISOString(), exact, lastAccess };
  console.log(`\nexact answers cached: ${writeResults(cacheName, cache)}`);
}
const exact = cache.exact;

// FAST_DEPTH=relevance,recImp overrides the first round's depths (for tuning).
const env = process.env.FAST_DEPTH?.split(",").map(Number);
const depth: Depth = env ? { relevance: env[0] ?? 100, recImp: env[1] ?? 400 } : firstDepth(10);
/** Rounds per query (0 = gave up, so the exact ranking answered, as in retrieve). */
const rounds: number[] = [];
const fast = (i: number, explain = false) =>
  db.transaction(async (tx) => {
    await useIndexPaths(tx);
    if (!explain) {
      const r = await fastRank<{ id: string; certain: boolean; missed: boolean }>(
        tx,
        params(i),
        index,
        depth,
      );
      rounds.push(r?.rounds ?? 0);
      if (r) return r.rows;
      // As retrieve does: the exact ranking answers when the search gives up.
      await tx.execute(
        sql`SELECT set_config('enable_sort', 'on', true), set_config('enable_seqscan', 'on', true), set_config('enable_hashjoin', 'on', true), set_config('max_parallel_workers_per_gather', '0', true), set_config('work_mem', '32MB', true)`,
      );
      return queryRows<{ id: string }>(tx, exactSql(params(i)));
    }
    const q = fastRankQuery(params(i), index, depth);
    const plan = await queryRows<{ "QUERY PLAN": string }>(
      tx,
      a.plan ? sql`EXPLAIN ${q}` : sql`EXPLAIN (ANALYZE, BUFFERS) ${q}`,
    );
    console.log(plan.map((r) => r["QUERY PLAN"]).join("\n"));
    return [];
  });

if (a.explain) {
  if (!a.plan) await fast(0);
  await fast(0, true);
} else {
  for (let i = 0; i < Math.min(3, count); i++) await fast(i);
  const times: number[] = [];
  let hits = 0;
  for (let r = 0; r < Number(a.runs); r++) {
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      const ids = (await fast(i)).map((x) => x.id);
      times.push(performance.now() - t0);
      if (r === 0) hits += ids.filter((id) => exact[i]?.includes(id)).length;
    }
  }
  console.log(
    `${a.db} ${a.dist} ${a.agent}: fast p50 ${quantile(times, 0.5).toFixed(1)} ms, p99 ${quantile(times, 0.99).toFixed(1)} ms, recall@10 ${(hits / (10 * count)).toFixed(3)}, rounds ${JSON.stringify(rounds.slice(-count))} (${count} queries × ${a.runs}; first depth ${JSON.stringify(depth)}; rounds 0 = gave up, exact answered)`,
  );
}
await database.close();
