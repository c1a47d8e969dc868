/**
 * The exact retrieve against its floor, back to back on an existing bench database:
 * `npx tsx bench/exact-floor.ts [--db memstream_bench_100000_512] [--agent bench-main]
 *  [--model bench-clustered-512] [--runs 15] [--explain]`.
 * Each round runs the floor (the same raw distance scan as bench/retrieval.ts) and then the exact
 * retrieve with the same query vector, so both see the same machine load; prints p50s and the ratio.
 * `--explain` prints EXPLAIN (ANALYZE, BUFFERS) of both, run as the service runs them.
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import pgvector from "pgvector";
import { openDatabase, queryRows } from "../src/db/client";
import { noEnrichment, noReflection } from "../src/memory/deps";
import { exactRankQuery } from "../src/memory/retrieve/exact-query";
import type { RankParams } from "../src/memory/retrieve/ranking-sql";
import { retrieve } from "../src/memory/retrieve/retrieve";
import { systemClock } from "../src/providers/types";
import { quantile } from "./lib/stats";

const { values: a } = parseArgs({
  options: {
    db: { type: "string", default: "memstream_bench_100000_512" },
    agent: { type: "string", default: "bench-main" },
    model: { type: "string", default: "bench-clustered-512" },
    runs: { type: "string", default: "15" },
    explain: { type: "boolean", default: false },
  },
});
const base = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
base.pathname = `/${a.db}`;
const database = await openDatabase({ url: base.toString(), dataDir: "", poolSize: 2 });
const db = database.db;
const runs = Number(a.runs);
const agent = a.agent as string;
const model = a.model as string;

// Query vectors as bench/retrieval.ts makes them for clustered data: stored vectors plus noise.
const stored = await queryRows<{ e: string }>(
  db,
  sql`SELECT embedding::text AS e FROM memory_embeddings WHERE agent_id = ${agent} AND model = ${model}
      ORDER BY memory_id LIMIT ${runs}`,
);
const queries = stored.map((r) => (pgvector.fromSql(r.e) as number[]).map((x, i) => x + ((i % 7) - 3) / 10));
const floorSql = (q: number[]) =>
  sql`SELECT min(d), max(d) FROM (SELECT embedding <=> ${pgvector.toSql(q)}::vector AS d
      FROM memory_embeddings WHERE agent_id = ${agent} AND model = ${model}) s`;
const deps = {
  db,
  clock: systemClock,
  embedder: { modelId: model, dimensions: queries[0]?.length ?? 0, maxBatchSize: 1, embed: async () => [] },
  enrichment: noEnrichment,
  reflection: noReflection,
};
const exact = (q: number[]) =>
  retrieve(deps, agent, { queryEmbedding: q, embeddingModel: model, k: 10, touch: false, mode: "exact" });

const time = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};
const floor: number[] = [];
const ex: number[] = [];
const cands: number[] = [];
for (let i = -2; i < queries.length; i++) {
  const q = queries[Math.max(0, i)] as number[];
  const f = await time(() => queryRows(db, floorSql(q)));
  const e = await time(async () => cands.push((await exact(q)).candidates));
  if (i >= 0) floor.push(f) && ex.push(e);
}
const p50 = (xs: number[]) => quantile(xs, 0.5).toFixed(1);
console.log(
  `${a.db} ${agent} ${model}: floor p50 ${p50(floor)} ms, exact p50 ${p50(ex)} ms, ratio ${(quantile(ex, 0.5) / quantile(floor, 0.5)).toFixed(2)}, candidates p50 ${quantile(cands, 0.5)} max ${Math.max(...cands)}`,
);

if (a.explain) {
  const q = queries[0] as number[];
  const params: RankParams = {
    agentId: agent,
    filters: {},
    query: { vector: pgvector.toSql(q), model, dimensions: q.length },
    now: new Date(),
    decay: 0.99,
    weights: { recency: 1, importance: 1, relevance: 1 },
    k: 10,
    touch: false,
  };
  const explain = async (label: string, body: ReturnType<typeof sql>) => {
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('jit', 'off', true)`);
      return queryRows<{ "QUERY PLAN": string }>(tx, sql`EXPLAIN (ANALYZE, BUFFERS) ${body}`);
    });
    console.log(
      `\n${label}\n${plan.map((r) => r["QUERY PLAN"].replace(/\[[-0-9.,e]+\]/g, "[…]")).join("\n")}`,
    );
  };
  await explain("floor", floorSql(q));
  await explain("exact", exactRankQuery(params));
}
await database.close();
