/**
 * Where a default retrieve's time goes on embedded PGlite: `npx tsx bench/explore/pglite-explain.ts`.
 * Copies the `default-speed` bench's 10k agent (BENCH_EXPLAIN_SIZE) from its PostgreSQL database
 * into an in-memory PGlite (workers off), times every statement a default retrieve sends, and
 * prints EXPLAIN ANALYZE of the slowest on PGlite and on PostgreSQL.
 */
import type { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { composeSystem } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { silentLogger } from "../../src/lib/logger";
import { retrieve } from "../../src/memory/retrieve/retrieve";
import { copyAgent, locomoDir, readLocomo } from "../lib/locomo";

const dir = locomoDir();
const url = process.env.EVAL_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/memstream_bench_default";
const SIZE = Number(process.env.BENCH_EXPLAIN_SIZE ?? 10_000);
const Q = Number(process.env.N ?? 3);
const { queries, fingerprint } = readLocomo(dir);
const open = (env: Record<string, string>) =>
  composeSystem(
    loadConfig({
      MEMSTREAM_DATA_DIR: "memory://",
      EMBEDDING_PROVIDER: "offline",
      MEMSTREAM_WORKERS: "off",
      ...env,
    }),
    silentLogger,
  );
const pg = await open({ DATABASE_URL: url });
const source = `locomo-${fingerprint}-${pg.providers.embedder.modelId}:`;
// The default-speed bench's scaled agent (its `scaledAgent`: copies with distinct texts).
const agent = `${source}distinct-${SIZE}`;
const sql = postgres(url, { max: 1, onnotice: () => {} });
const lite = await open(process.env.LITE_WORKERS ? { MEMSTREAM_WORKERS: process.env.LITE_WORKERS } : {});
const client = (lite.database.db as unknown as { $client: PGlite }).$client;
// Since ADR 0031 PGlite runs in its own thread behind a socket: its client is not here to wrap.
if (typeof client?.query !== "function") {
  throw new Error("embedded PGlite runs in a worker thread (ADR 0031): this bench cannot wrap its client");
}
try {
  let t0 = performance.now();
  await copyAgent(sql, agent, lite, pg.providers.embedder.modelId);
  console.log(`copied ${SIZE} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (process.env.NO_ANALYZE !== "1") await client.exec("ANALYZE");
  // Every statement the retrieve sends, with its time.
  const seen: { text: string; params: unknown[]; ms: number }[] = [];
  const query = client.query.bind(client);
  (client as { query: unknown }).query = async (text: string, params?: unknown[], opts?: unknown) => {
    const s = performance.now();
    const r = await query(text, params, opts as never);
    seen.push({ text, params: params ?? [], ms: performance.now() - s });
    return r;
  };
  const transaction = client.transaction.bind(client);
  (client as { transaction: unknown }).transaction = (
    fn: (tx: { query: typeof query }) => Promise<unknown>,
  ) =>
    transaction((tx) => {
      const q = tx.query.bind(tx);
      (tx as { query: unknown }).query = async (text: string, params?: unknown[], opts?: unknown) => {
        const s = performance.now();
        const r = await q(text, params, opts as never);
        seen.push({ text, params: params ?? [], ms: performance.now() - s });
        return r;
      };
      return fn(tx as never);
    });
  const asked = queries.filter((q) => q.conversation_id === "conv-43").slice(0, Q);
  const vectors = await pg.providers.embedder.embed(asked.map((q) => q.question));
  for (const [i, q] of asked.entries()) {
    for (const [name, sys] of [
      ["pglite", lite],
      ["postgres", pg],
    ] as const) {
      seen.length = 0;
      t0 = performance.now();
      const r = await retrieve(sys.services, agent, {
        query: q.question,
        queryEmbedding: vectors[i],
        now: q.now,
        k: 10,
        touch: false,
      });
      const total = performance.now() - t0;
      console.log(
        `${name} q${i} ${total.toFixed(0)} ms plan ${r.ranking.plan} (${r.ranking.planReason}) window ${JSON.stringify(r.ranking.timeWindow)} lift ${r.ranking.lift}`,
      );
      if (name === "pglite")
        for (const s of seen)
          console.log(`  ${s.ms.toFixed(1)} ms  ${s.text.replace(/\s+/g, " ").slice(0, 140)}`);
    }
  }
  if (process.env.EXPLAIN !== "0") {
    const q = asked[0];
    seen.length = 0;
    await retrieve(lite.services, agent, {
      query: q?.question,
      queryEmbedding: vectors[0],
      now: q?.now,
      k: 10,
      touch: false,
    });
    const slow = [...seen].sort((a, b) => b.ms - a.ms)[0];
    if (slow) {
      console.log(
        `\nslowest on PGlite (${slow.ms.toFixed(0)} ms):\n${slow.text}\nparams ${JSON.stringify(slow.params).slice(0, 300)}`,
      );
      await client.query("SET max_parallel_workers_per_gather = 0");
      await client.query("SET jit = off");
      const plan = await query(`EXPLAIN (ANALYZE, BUFFERS) ${slow.text}`, slow.params);
      console.log("\nPGlite:");
      for (const r of plan.rows as { "QUERY PLAN": string }[]) console.log(r["QUERY PLAN"]);
      const pgPlan = await sql.begin(async (tx) => {
        await tx.unsafe(
          "SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL jit = off; SET LOCAL work_mem = '32MB'; SET LOCAL enable_mergejoin = off",
        );
        return tx.unsafe(`EXPLAIN (ANALYZE, BUFFERS) ${slow.text}`, slow.params as never[]);
      });
      console.log("\nPostgreSQL:");
      for (const r of pgPlan as unknown as { "QUERY PLAN": string }[]) console.log(r["QUERY PLAN"]);
    }
  }
} finally {
  await sql.end();
  await lite.close();
  await pg.close();
}
