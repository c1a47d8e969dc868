/**
 * Export and import throughput: `npx tsx bench/portable.ts`. Seeds BENCH_PORTABLE_MEMORIES (default
 * 10,000) memories with BENCH_PORTABLE_DIMS-d vectors (default 512) into one agent, then times, on
 * PostgreSQL (`memstream_bench_port`, emptied first) and on embedded PGlite (`memory://`): the export
 * to a file, the import of that file into a fresh agent (one transaction), and a re-import (adds
 * nothing). Also the heap's peak above its start during each, sampled every 10 ms: the export and
 * import hold a page or a batch, never the stream, so it stays flat as the stream grows: run
 * `node --expose-gc --import tsx bench/portable.ts` (live heap) with BENCH_PORTABLE_MEMORIES=10000 and 40000.
 */

import { once } from "node:events";
import { createReadStream, createWriteStream, mkdtempSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { type Database, openDatabase } from "../src/db/client";
import type { CopyVector } from "../src/memory/copy-vectors";
import { announceNothing } from "../src/memory/events";
import { type InsertRow, insertMemoryRows } from "../src/memory/insert-rows";
import { exportAgent } from "../src/memory/portable/export-stream";
import { importAgent } from "../src/memory/portable/import-stream";
import { systemClock } from "../src/providers/types";
import { printTable } from "./lib/stats";

const N = Number(process.env.BENCH_PORTABLE_MEMORIES ?? 10_000);
const DIMS = Number(process.env.BENCH_PORTABLE_DIMS ?? 512);
const BASE = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NAME = "memstream_bench_port";
/** Targets: a 10k stream moves in seconds, not minutes; memory does not grow with the stream. */
const TARGETS = { exportPerS: 5_000, importPerS: 2_000, heapMb: 64 };

const words = ["build", "deploy", "upload", "retry", "lunch", "alice", "bob", "release", "branch", "test"];
const text = (i: number) =>
  Array.from({ length: 12 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(" ") + ` #${i}`;

async function seed(db: Database["db"], agent: string) {
  const now = new Date();
  for (let i = 0; i < N; i += 1_000) {
    const rows: InsertRow[] = [];
    const vectors: CopyVector[] = [];
    for (let j = i; j < Math.min(N, i + 1_000); j++) {
      const id = `mem_bench${String(j).padStart(11, "0")}`;
      rows.push({
        id,
        kind: "observation",
        description: text(j),
        createdAt: new Date(now.getTime() - (N - j) * 60_000),
        importance: 1 + (j % 10),
        importanceSource: "caller",
        embeddingModel: "bench-512",
        metadata: { j },
        citations: [],
        promptVersion: null,
      });
      vectors.push({
        memoryId: id,
        model: "bench-512",
        embedding: Array.from({ length: DIMS }, (_, k) => Math.sin(j * 31 + k)),
      });
    }
    await db.transaction((tx) => insertMemoryRows(tx, agent, now, rows, vectors));
  }
}

/**
 * Runs `fn`, returning its seconds and the live heap's peak above its start in MB: with
 * `node --expose-gc`, a full collection every 250 ms before each sample (what is still held, not
 * garbage V8 has not collected yet); without it, plain samples every 10 ms (garbage included).
 */
async function measured<T>(fn: () => Promise<T>): Promise<{ s: number; heapMb: number; out: T }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  const timer = setInterval(
    () => {
      gc?.();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    },
    gc ? 250 : 10,
  );
  const t0 = performance.now();
  const out = await fn();
  const s = (performance.now() - t0) / 1000;
  clearInterval(timer);
  return { s, heapMb: (peak - base) / 1e6, out };
}

async function run(label: string, database: Database) {
  await database.migrate();
  const deps = { db: database.db, clock: systemClock, announce: announceNothing };
  const source = `bench-src-${Date.now()}`;
  await seed(database.db, source);
  const file = join(mkdtempSync(join(tmpdir(), "memstream-bench-port-")), "stream.jsonl");
  const exp = await measured(async () => {
    const out = createWriteStream(file);
    await exportAgent(deps, source, async (chunk) => {
      if (!out.write(chunk)) await once(out, "drain");
    });
    out.end();
    await once(out, "finish");
  });
  const target = `bench-dst-${Date.now()}`;
  const imp = await measured(() => importAgent(deps, target, createReadStream(file)));
  const again = await measured(() => importAgent(deps, target, createReadStream(file)));
  if (imp.out.memories.added !== N || again.out.memories.added !== 0)
    throw new Error("import counts are off");
  const mb = statSync(file).size / 1e6;
  const row = (what: string, m: { s: number; heapMb: number }, target: number) => ({
    backend: label,
    what,
    memories: N,
    "file MB": Number(mb.toFixed(1)),
    seconds: Number(m.s.toFixed(2)),
    "memories/s": Math.round(N / m.s),
    target: `≥ ${target}/s`,
    "live heap peak MB": Number(m.heapMb.toFixed(1)),
    "heap target": `≤ ${TARGETS.heapMb}`,
  });
  return [
    row("export", exp, TARGETS.exportPerS),
    row("import", imp, TARGETS.importPerS),
    row("re-import (adds 0)", again, TARGETS.importPerS),
  ];
}

const admin = postgres(BASE, { max: 1, onnotice: () => {} });
await admin.unsafe(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
await admin.unsafe(`CREATE DATABASE ${NAME}`);
await admin.end();
const url = new URL(BASE);
url.pathname = `/${NAME}`;
const rows = [];
const pg = await openDatabase({ url: url.toString(), dataDir: "" });
try {
  rows.push(...(await run("postgres", pg)));
} finally {
  await pg.close();
}
const lite = await openDatabase({ url: null, dataDir: "memory://" });
try {
  rows.push(...(await run("pglite", lite)));
} finally {
  await lite.close();
}
console.log(
  `export/import, ${N} memories × ${DIMS}-d, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
);
printTable(rows);
