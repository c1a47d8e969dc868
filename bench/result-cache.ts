/**
 * The result cache on a repeated-question workload: `npx tsx bench/result-cache.ts`. One agent of
 * BENCH_CACHE_SIZE memories (default 10,000; random 512-d vectors of the offline model, so the
 * questions are embedded for real) in its own database on BENCH_DATABASE_URL's server; the same
 * sequence of retrieves — BENCH_CACHE_QUESTIONS distinct questions asked BENCH_CACHE_ASKS times in
 * all, in a seeded random order, with a new memory written every BENCH_CACHE_WRITE_EVERY asks — run
 * with the cache off and on (TTL 60 s), through the in-process app. Prints per-retrieve latency
 * and the hit rate of each.
 */
import { createApp } from "../src/api/app";
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { silentLogger } from "../src/lib/logger";
import { printTable, quantile } from "./lib/stats";

const fmt = (v: number, digits: number) => v.toFixed(digits);

const SIZE = Number(process.env.BENCH_CACHE_SIZE ?? 10_000);
const QUESTIONS = Number(process.env.BENCH_CACHE_QUESTIONS ?? 20);
const ASKS = Number(process.env.BENCH_CACHE_ASKS ?? 400);
const WRITE_EVERY = Number(process.env.BENCH_CACHE_WRITE_EVERY ?? 50);
const base = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");

/** A seeded generator (mulberry32), so both runs ask the same sequence. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main() {
  const dbName = `memstream_bench_cache_${SIZE}`;
  const admin = (await import("postgres")).default(base.href, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName}`);
  await admin.unsafe(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = new URL(base.href);
  url.pathname = `/${dbName}`;
  const system = await composeSystem(
    loadConfig({
      DATABASE_URL: url.href,
      EMBEDDING_PROVIDER: "offline",
      MEMSTREAM_SWEEP_AFTER_MS: "86400000",
    }),
    silentLogger,
  );
  const app = createApp(system.app);
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.request(path, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const agent = "bench-cache";
  const rnd = random(7);
  const vector = () => Array.from({ length: 512 }, () => rnd() - 0.5);
  const topics = [
    "deploy",
    "billing",
    "the party",
    "the garden",
    "lunch",
    "the release",
    "the database",
    "travel",
  ];
  for (let done = 0; done < SIZE; done += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, SIZE - done) }, (_, i) => ({
      description: `note ${done + i} about ${topics[(done + i) % topics.length]}`,
      importance: 1 + ((done + i) % 10),
      embedding: vector(),
      createdAt: new Date(Date.UTC(2026, 0, 1) + (done + i) * 60_000).toISOString(),
    }));
    await call("POST", `/v1/agents/${agent}/memories`, { memories: batch });
  }
  const questions = Array.from(
    { length: QUESTIONS },
    (_, i) => `What happened with ${topics[i % topics.length]} last time (${i})?`,
  );
  const pick = random(13);
  const order = Array.from({ length: ASKS }, () => Math.floor(pick() * QUESTIONS));

  const run = async (ttl: number) => {
    await call("PUT", `/v1/agents/${agent}/settings`, { retrieveCacheTtlMs: ttl });
    // A warm-up pass over the questions outside the timing (the embedder's first calls, plans).
    for (const q of questions) await call("POST", `/v1/agents/${agent}/retrieve`, { query: q, k: 10 });
    await call("DELETE", `/v1/agents/${agent}/cache`);
    const ms: number[] = [];
    let hits = 0;
    for (let i = 0; i < ASKS; i++) {
      if (WRITE_EVERY > 0 && i > 0 && i % WRITE_EVERY === 0) {
        await call("POST", `/v1/agents/${agent}/memories`, { description: `a new note ${i}`, importance: 5 });
      }
      const t0 = performance.now();
      const answer = await call("POST", `/v1/agents/${agent}/retrieve`, {
        query: questions[order[i] as number],
        k: 10,
      });
      ms.push(performance.now() - t0);
      if (answer.cachedAt) hits++;
    }
    ms.sort((a, b) => a - b);
    return {
      cache: ttl > 0 ? `on (${ttl / 1000} s)` : "off",
      retrieves: ASKS,
      "hit rate": fmt(hits / ASKS, 3),
      "p50 ms": fmt(quantile(ms, 0.5), 2),
      "p95 ms": fmt(quantile(ms, 0.95), 2),
      "mean ms": fmt(ms.reduce((a, b) => a + b, 0) / ms.length, 2),
    };
  };
  console.log(
    `result cache bench: ${SIZE} memories, ${QUESTIONS} questions asked ${ASKS} times, a write every ${WRITE_EVERY} asks`,
  );
  const off = await run(0);
  const on = await run(60_000);
  printTable([off, on]);
  console.log(
    `saved per retrieve (mean): ${fmt(Number(off["mean ms"]) - Number(on["mean ms"]), 2)} ms; target: none set (measure what it saves)`,
  );
  await system.close();
}

await main();
