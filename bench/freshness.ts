/**
 * Write-to-searchable latency, the freshness contract's figure (docs/adr/0035):
 * `npx tsx bench/freshness.ts`. The service composed in this process (`src/compose.ts`) with its
 * in-process workers and the offline embedder, on a database of its own
 * (`memstream_bench_freshness`, made fresh). A writer POSTs one memory every
 * BENCH_FRESH_EVERY_MS (default 50) for BENCH_FRESH_N writes (default 200); a poller reads, every
 * 10 ms, which of them have their vector (`embedding_status = 'ready'`); a memory's latency is
 * from the write's answer to the first poll that sees it ready (10 ms resolution). Two figures:
 * an idle pipeline, and during a backlog (BENCH_FRESH_BACKLOG memories, default 2,000, written in
 * one batch just before). Prints p50/p95/max and the load average.
 * BENCH_FRESH_WORKERS=K: the queues on Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379/5,
 * flushed first) and K worker processes (`src/worker.ts`, as `npm run worker` starts them) instead
 * of the in-process workers.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import { Redis } from "ioredis";
import postgres from "postgres";
import { createApp } from "../src/api/app";
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { queryRows } from "../src/db/client";
import { silentLogger } from "../src/lib/logger";
import { FIELDS } from "../src/memory/enrichment/fields";
import { quantile } from "./lib/stats";

const BASE = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NAME = process.env.BENCH_FRESH_DATABASE ?? "memstream_bench_freshness";
const N = Number(process.env.BENCH_FRESH_N ?? 200);
const EVERY = Number(process.env.BENCH_FRESH_EVERY_MS ?? 50);
const BACKLOG = Number(process.env.BENCH_FRESH_BACKLOG ?? 2_000);

const admin = postgres(BASE, { max: 1, onnotice: () => {} });
await admin.unsafe(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
await admin.unsafe(`CREATE DATABASE "${NAME}"`);
const url = new URL(BASE);
url.pathname = `/${NAME}`;
const WORKERS = Number(process.env.BENCH_FRESH_WORKERS ?? 0);
const REDIS = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/5";
const env = {
  DATABASE_URL: url.toString(),
  EMBEDDING_PROVIDER: "offline",
  ...(WORKERS > 0 ? { REDIS_URL: REDIS } : {}),
};
if (WORKERS > 0) {
  const redis = new Redis(REDIS);
  await redis.flushdb();
  redis.disconnect();
}
const system = await composeSystem(loadConfig(env), silentLogger);
const app = createApp(system.app);
// Worker processes as `npm run worker` starts them, or the in-process workers.
const workers: ChildProcess[] = [];
if (WORKERS > 0) {
  for (let i = 0; i < WORKERS; i++) {
    workers.push(
      spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], {
        env: { ...process.env, ...env, MEMSTREAM_WORKER_METRICS_PORT: "0", MEMSTREAM_LOG_LEVEL: "error" },
        stdio: "inherit",
      }),
    );
  }
} else system.jobs.startWorkers();
const post = (agent: string, body: object) =>
  app.request(`/v1/agents/${agent}/memories`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function figure(agent: string): Promise<number[]> {
  const written = new Map<string, number>();
  const latency: number[] = [];
  let writing = true;
  const poller = (async () => {
    while (writing || latency.length < written.size) {
      const ready = await queryRows<{ id: string }>(
        system.services.db,
        sql`SELECT id FROM memories WHERE agent_id = ${agent} AND ${FIELDS.embedding.status} = 'ready'`,
      );
      const seen = performance.now();
      for (const { id } of ready) {
        const at = written.get(id);
        if (at !== undefined) {
          latency.push(seen - at);
          written.set(id, Number.NaN);
        }
      }
      latency.splice(0, latency.length, ...latency.filter((x) => !Number.isNaN(x)));
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  for (let i = 0; i < N; i++) {
    const res = await post(agent, {
      description: `status update ${i}: the billing deploy is at step ${i % 7}`,
    });
    written.set(((await res.json()) as { id: string }).id, performance.now());
    await new Promise((r) => setTimeout(r, EVERY));
  }
  writing = false;
  await poller;
  return latency;
}

// Warm the offline model, so the first figure is not its load.
await post("bench-warm", { description: "warm up" });
for (;;) {
  const [row] = await queryRows<{ ready: boolean }>(
    system.services.db,
    sql`SELECT bool_and(${FIELDS.embedding.status} = 'ready') AS ready FROM memories WHERE agent_id = 'bench-warm'`,
  );
  if (row?.ready) break;
  await new Promise((r) => setTimeout(r, 50));
}
const idle = await figure("bench-idle");
const memories = Array.from({ length: BACKLOG }, (_, i) => ({
  description: `backlog note ${i} about invoices`,
}));
for (let i = 0; i < memories.length; i += 1_000)
  await post("bench-backlog", { memories: memories.slice(i, i + 1_000) });
const busy = await figure("bench-during-backlog");
const line = (name: string, xs: number[]) =>
  `${name.padEnd(34)} p50 ${quantile(xs, 0.5).toFixed(0)} ms  p95 ${quantile(xs, 0.95).toFixed(0)} ms  max ${Math.max(...xs).toFixed(0)} ms  (n ${xs.length})`;
console.log(
  `${WORKERS > 0 ? `${WORKERS} worker process${WORKERS > 1 ? "es" : ""} (BullMQ on Redis)` : "in-process workers"}, offline embedder, a write every ${EVERY} ms`,
);
console.log(line("idle pipeline", idle));
console.log(line(`during a backlog of ${BACKLOG}`, busy));
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
for (const w of workers) w.kill("SIGTERM");
await Promise.all(
  workers.map((w) => new Promise((r) => (w.exitCode === null ? w.once("exit", r) : r(null)))),
);
await system.close();
await admin.unsafe(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
await admin.end();
