/**
 * Memory tiers' cost and gain, each figure beside its target: `npm run bench:tiers`.
 * - `compact` (zero-config): `npm start` as a newcomer runs it (embedded PGlite in a fresh folder,
 *   in-process workers) as a child; 10,000 memories over 100 past days, with their vectors and
 *   importance; then `POST …/maintenance` compacts all of them while `/healthz` is polled every
 *   100 ms. Prints its wall time, the server's CPU time and the longest stall. Target: no stall
 *   over the zero-config bound (250 ms).
 * - `retrieve` (PostgreSQL, `BENCH_DATABASE_URL`'s server, database `memstream_bench_tiers`):
 *   one agent of `BENCH_TIERS_SIZE` (100,000) memories over 1,000 days (vectors in clusters, texts
 *   from a small vocabulary), a copy of it with the oldest 90 % compacted; the default retrieve
 *   (mode auto, query text and vector, k 10, no touch) asked of both, paired per question and
 *   alternating (bench/lib/paired.ts). Prints the ranked rows of each and both p50s.
 * `BENCH_TIERS_PARTS` (default compact,retrieve) chooses. Time figures only on a quiet machine.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { queryRows } from "../src/db/client";
import { silentLogger } from "../src/lib/logger";
import { retrieve } from "../src/memory/retrieve/retrieve";
import { compactAgent } from "../src/memory/tiers/compact";
import { startProbe } from "../test/support/hostile";
import { spawnEntry } from "../test/support/spawn";
import { ownDatabase } from "./lib/own-database";
import { pairedRuns, pairedSummary } from "./lib/paired";
import { printTable, writeResults } from "./lib/stats";

const PARTS = (process.env.BENCH_TIERS_PARTS ?? "compact,retrieve").split(",");
const SIZE = Number(process.env.BENCH_TIERS_SIZE ?? 100_000);
const N = Number(process.env.N ?? 40);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const targets: Record<string, string>[] = [];
const WORDS = [
  "deploy",
  "build",
  "retry",
  "lunch",
  "alice",
  "bob",
  "release",
  "branch",
  "review",
  "garden",
  "tomato",
  "chess",
  "invoice",
  "server",
  "meeting",
  "train",
  "museum",
  "coffee",
  "flight",
  "budget",
];
const text = (i: number) =>
  `${WORDS[i % 20]} ${WORDS[(i * 7) % 20]} ${WORDS[(i * 13 + 3) % 20]} note ${i}: ${WORDS[(i * 3) % 20]} went well`;

/** A deterministic vector near one of 50 centres (dims `d`). */
function vector(i: number, d: number): number[] {
  const c = i % 50;
  let seed = i * 2654435761;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648 - 0.5;
  };
  return Array.from({ length: d }, (_, k) => Math.sin(c * 31 + k * 0.7) + 0.4 * rnd());
}

if (PARTS.includes("compact")) {
  const dir = mkdtempSync(join(tmpdir(), "memstream-tiers-"));
  const server = spawnEntry("src/server.ts", {
    PATH: process.env.PATH ?? "",
    PORT: "0",
    MEMSTREAM_DATA_DIR: join(dir, "data"),
  });
  try {
    const url = String((await server.waitForLog(/^listening$/, 180_000)).url);
    const agent = "tiers-compact";
    const dims = 512; // the offline model's
    const day0 = Date.parse("2026-01-01T00:00:00Z");
    for (let b = 0; b < 10; b++) {
      const memories = Array.from({ length: 1000 }, (_, j) => {
        const i = b * 1000 + j;
        return {
          description: text(i),
          createdAt: new Date(day0 + Math.floor(i / 100) * 86_400_000 + (i % 100) * 60_000).toISOString(),
          importance: 1 + (i % 10),
          embedding: vector(i, dims),
        };
      });
      const res = await fetch(`${url}/v1/agents/${agent}/memories`, {
        method: "POST",
        headers: { "content-type": "application/json", prefer: "return=minimal" },
        body: JSON.stringify({ memories }),
      });
      if (res.status !== 201) throw new Error(`write: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
    }
    const probe = startProbe(url, 100);
    await new Promise((r) => setTimeout(r, 500));
    const cpu0 = cpuSeconds(server.child.pid as number);
    probe.reset();
    const loadBefore = load();
    const t0 = performance.now();
    const res = await fetch(`${url}/v1/agents/${agent}/maintenance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ before: "2027-01-01T00:00:00Z" }),
    });
    const report = (await res.json()) as { compaction: { summaries: number; archived: number } };
    const wall = performance.now() - t0;
    const window = await probe.read();
    const cpu = cpuSeconds(server.child.pid as number) - cpu0;
    await probe.stop();
    console.log(
      `compaction, zero-config: ${report.compaction.archived} memories into ${report.compaction.summaries} summaries in ${(wall / 1000).toFixed(1)} s wall, server CPU ${cpu.toFixed(1)} s; longest /healthz stall ${window.stallMs.toFixed(0)} ms (load ${loadBefore} → ${load()})`,
    );
    targets.push({
      target: "compaction of 10k memories offline, zero-config: longest stall ≤ 250 ms",
      figure: `${window.stallMs.toFixed(0)} ms; ${(wall / 1000).toFixed(1)} s wall, ${cpu.toFixed(1)} s server CPU`,
      verdict: window.stallMs <= 250 ? "met" : "missed",
    });
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

if (PARTS.includes("retrieve")) {
  const url = await ownDatabase("memstream_bench_tiers");
  const system = await composeSystem(
    loadConfig({ DATABASE_URL: url, MEMSTREAM_DATA_DIR: "memory://", EMBEDDING_PROVIDER: "offline" }),
    silentLogger,
  );
  const deps = system.services;
  const db = system.database.db;
  const model = deps.embedder.modelId;
  const dims = deps.embedder.dimensions ?? 512;
  const plain = `tiers-plain-${SIZE}`;
  const tiered = `tiers-compacted-${SIZE}`;
  const count = async (a: string) =>
    Number(
      (await queryRows<{ n: string }>(db, sql`SELECT count(*) AS n FROM memories WHERE agent_id = ${a}`))[0]
        ?.n,
    );
  const day0 = Date.parse("2024-01-01T00:00:00Z");
  const perDay = SIZE / 1000;
  if ((await count(plain)) !== SIZE) {
    await db.execute(sql`DELETE FROM memories WHERE agent_id IN (${plain}, ${tiered})`);
    await db.execute(sql`DELETE FROM memory_archive WHERE agent_id = ${tiered}`);
    const t0 = performance.now();
    for (let b = 0; b < SIZE; b += 2000) {
      const rows = Array.from({ length: Math.min(2000, SIZE - b) }, (_, j) => {
        const i = b + j;
        return {
          id: `m${i}`,
          description: text(i),
          created_at: new Date(
            day0 + Math.floor(i / perDay) * 86_400_000 + (i % perDay) * 60_000,
          ).toISOString(),
          importance: 1 + (i % 10),
          v: `[${vector(i, dims)
            .map((x) => x.toFixed(5))
            .join(",")}]`,
        };
      });
      const json = JSON.stringify(rows);
      for (const a of [plain, tiered]) {
        await db.execute(sql`INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at,
            importance, importance_status, importance_source, embedding_status, embedding_model)
          SELECT x.id, ${a}, 'observation', x.description, x.created_at, x.created_at, x.importance, 'ready',
            'caller', 'ready', ${model}
          FROM jsonb_to_recordset(${json}::jsonb) AS x(id text, description text, created_at timestamptz, importance int)`);
        await db.execute(sql`INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
          SELECT x.id, ${a}, ${model}, ${dims}, x.v::vector, 1
          FROM jsonb_to_recordset(${json}::jsonb) AS x(id text, v text)`);
      }
    }
    await db.execute(sql`ANALYZE memories`);
    await db.execute(sql`ANALYZE memory_embeddings`);
    console.log(`seeded 2 × ${SIZE} memories in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    const t1 = performance.now();
    const cut = new Date(day0 + 900 * 86_400_000);
    let done = { archived: 0, summaries: 0, more: true };
    while (done.more) {
      const r = await compactAgent(deps, tiered, { before: cut, groupMax: 8 });
      done = { archived: done.archived + r.archived, summaries: done.summaries + r.summaries, more: r.more };
    }
    await db.execute(sql`ANALYZE memories`);
    console.log(
      `compacted ${done.archived} into ${done.summaries} summaries on PostgreSQL in ${((performance.now() - t1) / 1000).toFixed(0)} s (load ${load()})`,
    );
  }
  const ranked = { plain: await count(plain), tiered: await count(tiered) };
  const archived = Number(
    (
      await queryRows<{ n: string }>(
        db,
        sql`SELECT count(*) AS n FROM memory_archive WHERE agent_id = ${tiered}`,
      )
    )[0]?.n,
  );
  const questions = Array.from({ length: N }, (_, q) => ({
    query: `${WORDS[q % 20]} ${WORDS[(q * 11 + 5) % 20]}`,
    vector: vector(q * 7919 + 13, dims),
  }));
  const loadBefore = load();
  const paired = await pairedRuns(N, async (side, i) => {
    const q = questions[i] as (typeof questions)[number];
    const r = await retrieve(deps, side === "base" ? plain : tiered, {
      query: q.query,
      queryEmbedding: q.vector,
      k: 10,
      touch: false,
      now: "2026-10-01T00:00:00Z",
    });
    return `${r.mode}`;
  });
  const summary = pairedSummary(paired);
  console.log(`\nretrieve, default (mode auto), ${N} questions × 2 rounds, load ${loadBefore} → ${load()}`);
  printTable([
    {
      stream: `${SIZE} memories, none compacted (base)`,
      "ranked rows": ranked.plain,
      archived: 0,
      "p50 ms": summary["base p50 ms"],
    },
    {
      stream: `the same, oldest 90 % compacted (new)`,
      "ranked rows": ranked.tiered,
      archived,
      "p50 ms": summary["new p50 ms"],
    },
  ]);
  console.log(`median pair new/base ${summary["new/base, median pair"]} (q25–q75 ${summary["q25–q75"]})`);
  targets.push({
    target: `retrieve p50 at ${SIZE / 1000}k with 90 % archived, paired against no compaction (report)`,
    figure: `${summary["new p50 ms"]} against ${summary["base p50 ms"]} ms (median pair ${summary["new/base, median pair"]}); ranked rows ${ranked.tiered} against ${ranked.plain} (${((1 - ranked.tiered / ranked.plain) * 100).toFixed(1)} % fewer)`,
    verdict: "reported",
  });
  await system.close();
}

console.log("\nmemory tiers' targets (docs/performance.md)");
printTable(targets);
console.log(`results: ${writeResults("tiers", { at: new Date().toISOString(), targets })}`);

/** A process's user + system CPU seconds (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
