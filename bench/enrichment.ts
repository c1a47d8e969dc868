/**
 * Enrichment pipeline figures: memories enriched per second per worker (offline embedder +
 * offline importance, and the OpenAI-compatible stub for both), POST→ready lag at a steady
 * write rate, and POST latency with the workers idle vs busy. Real Postgres and Redis.
 * Run: `npm run bench:enrichment` (BENCH_DATABASE_URL, BENCH_REDIS_URL, BENCH_N override).
 * Writes a table to stdout and JSON to bench/results/enrichment.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { createApp } from "../src/api/app";
import { composeSystem, type System } from "../src/compose";
import { loadConfig } from "../src/config";
import { queryRows } from "../src/db/client";
import { silentLogger } from "../src/lib/logger";
import { obliterateQueues } from "../test/jobs/support";
import { type Stub, startStubOpenAI } from "../test/support/stub-openai";

const DB = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/memstream_bench";
const REDIS = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
const N = Number(process.env.BENCH_N ?? 500);

async function ensureDatabase() {
  const admin = new URL(DB);
  const name = admin.pathname.slice(1);
  admin.pathname = "/postgres";
  const s = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  // A fresh database each run: the figures never depend on leftovers (or an older schema).
  await s.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await s.unsafe(`CREATE DATABASE "${name}"`);
  await s.end();
}

type Bench = { system: System; app: ReturnType<typeof createApp>; prefix: string; agent: string };

async function start(stub: Stub | null, label: string): Promise<Bench> {
  const prefix = `bench-${process.pid}-${label}`;
  const env: Record<string, string> = {
    DATABASE_URL: DB,
    REDIS_URL: REDIS,
    MEMSTREAM_QUEUE_PREFIX: prefix,
    MEMSTREAM_WORKER_CONCURRENCY: "1",
    MEMSTREAM_SWEEP_INTERVAL_MS: "60000",
    MEMSTREAM_LOG_LEVEL: "error",
    // Enrichment only: threshold reflections would add chat calls to the stub figures.
    REFLECTION_THRESHOLD: "0",
  };
  if (stub) {
    Object.assign(env, {
      OPENAI_BASE_URL: stub.url,
      EMBEDDING_PROVIDER: "openai",
      EMBEDDING_MODEL: "stub-embed",
      EMBEDDING_DIMENSIONS: "64",
      LLM_MODEL: "stub-chat",
    });
  }
  const system = await composeSystem(loadConfig(env), silentLogger);
  return { system, app: createApp(system.app), prefix, agent: `bench-${label}-${Date.now()}` };
}

async function post(b: Bench, body: unknown): Promise<{ ms: number; ids: string[] }> {
  const t0 = performance.now();
  const res = await b.app.request(`/v1/agents/${b.agent}/memories`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const ms = performance.now() - t0;
  const json = (await res.json()) as { id?: string; memories?: { id: string }[] };
  return { ms, ids: json.memories ? json.memories.map((m) => m.id) : [json.id as string] };
}

async function readyCount(b: Bench): Promise<number> {
  const [r] = await queryRows<{ n: number }>(
    b.system.database.db,
    sql`SELECT count(*)::int AS n FROM memories WHERE agent_id = ${b.agent} AND importance_status = 'ready' AND embedding_status = 'ready'`,
  );
  return Number(r?.n ?? 0);
}

async function untilReady(b: Bench, n: number) {
  while ((await readyCount(b)) < n) await new Promise((r) => setTimeout(r, 20));
}

async function stop(b: Bench) {
  await b.app.request(`/v1/agents/${b.agent}`, { method: "DELETE" });
  await b.system.close();
  await obliterateQueues(b.prefix);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, c) => a - c);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const memories = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => ({
    description: `${tag} observation ${i}: the build on main failed again`,
  }));

async function throughput(stub: Stub | null, label: string) {
  const b = await start(stub, label);
  // Warm-up (model load for the offline embedder) outside the timing.
  b.system.jobs.startWorkers();
  await post(b, { memories: memories(5, "warm") });
  await untilReady(b, 5);
  for (let i = 0; i < N; i += 1000) await post(b, { memories: memories(Math.min(1000, N - i), `t${i}`) });
  const t0 = performance.now();
  await untilReady(b, N + 5);
  const secs = (performance.now() - t0) / 1000;
  await stop(b);
  return N / secs;
}

async function lagAndLatency(stub: Stub) {
  const b = await start(stub, "lag");
  b.system.jobs.startWorkers();
  const single = () => post(b, { description: "a steady write" });
  // POST latency, workers idle.
  const idle: number[] = [];
  for (let i = 0; i < 200; i++) idle.push((await single()).ms);
  await untilReady(b, 200);

  // Lag at a steady 50 writes/s for 5 s: time from POST answered to the row being ready.
  const posted = new Map<string, number>();
  const readyAt = new Map<string, number>();
  const rate = 50;
  for (let i = 0; i < rate * 5; i++) {
    const t = performance.now();
    const { ids } = await single();
    posted.set(ids[0] as string, performance.now());
    await new Promise((r) => setTimeout(r, Math.max(0, 1000 / rate - (performance.now() - t))));
    if (i % 5 === 0) await markReady(b, posted, readyAt);
  }
  while (readyAt.size < posted.size) {
    await markReady(b, posted, readyAt);
    await new Promise((r) => setTimeout(r, 10));
  }
  const lags = [...posted].map(([id, t]) => (readyAt.get(id) ?? t) - t);

  // POST latency, workers busy with a backlog.
  await post(b, { memories: memories(1000, "backlog") });
  const busy: number[] = [];
  for (let i = 0; i < 200; i++) busy.push((await single()).ms);
  const stillPending = 1000 + 200 + 250 + 200 - (await readyCount(b));
  await stop(b);
  return { lags, idle, busy, stillPending };
}

async function markReady(b: Bench, posted: Map<string, number>, readyAt: Map<string, number>) {
  const ids = [...posted.keys()].filter((id) => !readyAt.has(id));
  if (ids.length === 0) return;
  const rows = await queryRows<{ id: string }>(
    b.system.database.db,
    sql`SELECT id FROM memories WHERE id IN ${ids} AND importance_status = 'ready' AND embedding_status = 'ready'`,
  );
  const now = performance.now();
  for (const r of rows) readyAt.set(r.id, now);
}

await ensureDatabase();
const stub = await startStubOpenAI();
const offline = await throughput(null, "offline");
const viaStub = await throughput(stub, "stub");
const { lags, idle, busy, stillPending } = await lagAndLatency(stub);
await stub.close();

const results = {
  memories: N,
  enrichedPerSecondPerWorker: { offline: Math.round(offline), stub: Math.round(viaStub) },
  lagMs: { rate: "50/s for 5 s", p50: Math.round(pct(lags, 50)), p99: Math.round(pct(lags, 99)) },
  postMs: {
    idle: { p50: +pct(idle, 50).toFixed(2), p99: +pct(idle, 99).toFixed(2) },
    busy: { p50: +pct(busy, 50).toFixed(2), p99: +pct(busy, 99).toFixed(2), backlogPending: stillPending },
  },
  note: "workers run in the bench process (one BullMQ worker per job, concurrency 1), so 'busy' includes event-loop sharing",
};
console.table({
  "enriched/s per worker, offline": results.enrichedPerSecondPerWorker.offline,
  "enriched/s per worker, stub": results.enrichedPerSecondPerWorker.stub,
  "POST→ready lag p50 ms (50/s)": results.lagMs.p50,
  "POST→ready lag p99 ms (50/s)": results.lagMs.p99,
  "POST p50 ms, workers idle": results.postMs.idle.p50,
  "POST p99 ms, workers idle": results.postMs.idle.p99,
  "POST p50 ms, workers busy": results.postMs.busy.p50,
  "POST p99 ms, workers busy": results.postMs.busy.p99,
});
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/enrichment.json", `${JSON.stringify(results, null, 2)}\n`);
process.exit(0);
