/**
 * What the outgoing-event outbox costs a write: `npx tsx bench/outbox.ts`. One process, the real
 * app in-process (`app.request`), its own database (`memstream_bench_outbox`), no workers and no
 * Redis (announcements are resolved, then dropped: delivery is not on the write path). Each write
 * is one `POST …/memories` of one memory with its importance and vector supplied (so no enrichment
 * work is announced), timed from request to answer. Three agents, rounds interleaved:
 * - `outbox off`: the outbox triggers disabled and `events.recorded` dropped before the announcer —
 *   the write path as it was before outgoing events;
 * - `no subscription`: the write path now, for an agent nobody subscribed to (the common case);
 * - `subscribed`: an agent with one active subscription to every event (a delivery row per write).
 * They run in blocks of 100 writes, the order rotating each block.
 * Knobs: BENCH_OUTBOX_WRITES (per agent and round, default 2,000), BENCH_OUTBOX_ROUNDS (default 3),
 * BENCH_OUTBOX_BATCH (memories per POST, default 1).
 */
import { loadavg } from "node:os";
import postgres from "postgres";
import { createApp } from "../src/api/app";
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db/client";
import { silentLogger } from "../src/lib/logger";
import { printTable, quantile } from "./lib/stats";

const BASE = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NAME = "memstream_bench_outbox";
const WRITES = Number(process.env.BENCH_OUTBOX_WRITES ?? 2_000);
const ROUNDS = Number(process.env.BENCH_OUTBOX_ROUNDS ?? 3);
const BATCH = Number(process.env.BENCH_OUTBOX_BATCH ?? 1);
const BLOCK = Math.max(1, Math.min(100, WRITES));
const DIMS = 64;

const admin = postgres(BASE, { max: 1, onnotice: () => {} });
await admin.unsafe(`DROP DATABASE IF EXISTS "${NAME}" WITH (FORCE)`);
await admin.unsafe(`CREATE DATABASE "${NAME}"`);
await admin.end();
const u = new URL(BASE);
u.pathname = `/${NAME}`;
const url = u.toString();
const migrated = await openDatabase({ url, dataDir: "", poolSize: 1 });
await migrated.migrate();
await migrated.close();

const OFF = "bench-outbox-off";
let outboxOff = false;
const system = await composeSystem(
  loadConfig({ DATABASE_URL: url, MEMSTREAM_WORKERS: "off", MEMSTREAM_EVENTS_ALLOW_PRIVATE: "true" }),
  silentLogger,
  {
    // The "before" path: no `events.recorded` reaches the announcer (no post-commit lookup).
    announce: (jobs) => (events) =>
      jobs(outboxOff ? events.filter((e) => e.kind !== "events.recorded") : events),
  },
);
const app = createApp(system.app);
const sql = postgres(url, { max: 1, onnotice: () => {} });
const post = (path: string, body: unknown) =>
  app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const subscribed = "bench-outbox-subscribed";
const res = await post(`/v1/agents/${subscribed}/subscriptions`, { url: "http://127.0.0.1:9/hook" });
if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);

const TRIGGERS = [
  "memories_events_inserted",
  "memories_events_deleted",
  "memories_events_enriched",
  "memories_events_superseded",
];
async function setTriggers(on: boolean) {
  for (const t of TRIGGERS)
    await sql.unsafe(`ALTER TABLE memories ${on ? "ENABLE" : "DISABLE"} TRIGGER ${t}`);
}

const vector = () => Array.from({ length: DIMS }, () => Math.random() - 0.5);
async function run(agent: string, writes: number): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < writes; i++) {
    const memories = Array.from({ length: BATCH }, (_, j) => ({
      description: `write ${i}.${j} of the outbox bench`,
      importance: 5,
      embedding: vector(),
      embeddingModel: `bench-${DIMS}`,
    }));
    const t0 = performance.now();
    const r = await post(`/v1/agents/${agent}/memories`, { memories });
    ms.push(performance.now() - t0);
    if (r.status !== 201) throw new Error(`write: ${r.status} ${await r.text()}`);
  }
  return ms;
}

const cases = [
  { name: "outbox off (before)", agent: OFF, off: true },
  { name: "no subscription", agent: "bench-outbox-none", off: false },
  { name: "subscribed (all events)", agent: subscribed, off: false },
];
const samples = new Map(cases.map((c) => [c.name, [] as number[]]));
// Warm-up: plans, pools, the first lookups.
for (const c of cases) {
  outboxOff = c.off;
  await setTriggers(!c.off);
  await post(`/v1/agents/${c.agent}/memories`, {
    memories: [{ description: "warm", importance: 5, embedding: vector(), embeddingModel: `bench-${DIMS}` }],
  });
}
// Blocks of BLOCK writes per case, the order rotating each block, so a busy spell of the shared
// machine lands on every case alike; each block starts after the same trigger statement.
const blocks = Math.ceil((WRITES * ROUNDS) / BLOCK);
for (let b = 0; b < blocks; b++) {
  for (let i = 0; i < cases.length; i++) {
    const c = cases[(b + i) % cases.length];
    if (!c) continue;
    outboxOff = c.off;
    await setTriggers(!c.off);
    samples.get(c.name)?.push(...(await run(c.agent, BLOCK)));
  }
}
await setTriggers(true);
const [outbox] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM event_deliveries`;
const base = quantile(samples.get(cases[0]?.name ?? "") ?? [], 0.5);
printTable(
  cases.map((c) => {
    const s = samples.get(c.name) ?? [];
    const mean = s.reduce((a, b) => a + b, 0) / s.length;
    const p50 = quantile(s, 0.5);
    return {
      case: c.name,
      writes: s.length,
      "mean ms": mean,
      "p50 ms": p50,
      "p99 ms": quantile(s, 0.99),
      "p50 vs off": `${(((p50 - base) / base) * 100).toFixed(1)}%`,
    };
  }),
);
console.log(
  `memories per POST ${BATCH}; delivery rows written ${outbox?.n ?? 0}; load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
await sql.end();
await system.close();
