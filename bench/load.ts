/**
 * Concurrency: `npm run bench:load`. One service (the real app over HTTP on a local port) against
 * the 10k-memory benchmark database (built by bench:retrieval when missing), while autocannon
 * sends retrieves (8 connections) and single-memory writes with vectors (2 connections) at once.
 * Prints throughput, p50/p99 latency and errors, which must be zero. BENCH_LOAD_SECONDS sets the
 * duration (default 15).
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { createApp } from "../src/api/app";
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { queryRows } from "../src/db/client";
import { silentLogger } from "../src/lib/logger";
import { ensureDataset, MAIN, modelOf } from "./lib/dataset";
import { printTable, writeResults } from "./lib/stats";

const BASE = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const seconds = Number(process.env.BENCH_LOAD_SECONDS ?? 15);
const dims = 512;
const model = modelOf(dims, "clustered");
const url = await ensureDataset(BASE, { size: 10_000, dims, distributions: ["clustered"] }, console.log);
const system = await composeSystem(
  loadConfig({ DATABASE_URL: url, EMBEDDING_PROVIDER: "offline" }),
  silentLogger,
);
const app = createApp(system.app);
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
await new Promise((ok) => server.once("listening", ok));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const vectors = await queryRows<{ e: string }>(
  system.database.db,
  sql`SELECT embedding::text AS e FROM memory_embeddings WHERE agent_id = ${MAIN} AND model = ${model} LIMIT 20`,
);
const retrieveBodies = vectors.map((v) =>
  JSON.stringify({ queryEmbedding: JSON.parse(v.e), embeddingModel: model, k: 10 }),
);
// One request first, so a broken setup fails with its reason instead of as an error count.
const probe = await fetch(`${origin}/v1/agents/${MAIN}/retrieve`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: retrieveBodies[0],
});
if (probe.status !== 200) throw new Error(`retrieve probe: ${probe.status} ${await probe.text()}`);
const vec = () => Array.from({ length: dims }, () => Math.random() * 2 - 1);
let n = 0;
const run = (title: string, connections: number, path: string, body: () => string) =>
  autocannon({
    title,
    url: `${origin}${path}`,
    connections,
    duration: seconds,
    method: "POST",
    headers: { "content-type": "application/json" },
    requests: [{ setupRequest: (req) => ({ ...req, body: body() }) }],
  });
console.log(`load: ${seconds} s, retrieves (8 connections) and writes (2 connections) at once, ${origin}`);
const [reads, writes] = await Promise.all([
  run(
    "retrieve",
    8,
    `/v1/agents/${MAIN}/retrieve`,
    () => retrieveBodies[n++ % retrieveBodies.length] as string,
  ),
  run("write", 2, "/v1/agents/bench-load/memories", () =>
    JSON.stringify({ description: `load ${n++}`, importance: 5, embedding: vec(), embeddingModel: model }),
  ),
]);
const row = (r: autocannon.Result) => ({
  what: r.title ?? "",
  "req/s": r.requests.average,
  "p50 ms": r.latency.p50,
  "p99 ms": r.latency.p99,
  requests: r.requests.total,
  errors: r.errors + r.timeouts + r.non2xx,
});
printTable([row(reads), row(writes)]);
console.log(
  `\nresults: ${writeResults("load", { at: new Date().toISOString(), seconds, rows: [row(reads), row(writes)] })}`,
);
await system.database.db.execute(sql`DELETE FROM memories WHERE agent_id = 'bench-load'`);
server.close();
await system.close();
if (reads.non2xx + writes.non2xx + reads.errors + writes.errors > 0) process.exitCode = 1;
