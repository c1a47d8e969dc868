/**
 * Retrieval at scale: `npm run bench:retrieval` (sizes from BENCH_SIZES, default 10000,100000;
 * `--full` adds 1,000,000 at 512-d and 100,000 at 1536-d). Each dataset lives in its own database
 * (memstream_bench_<size>_<dims>, reused when complete) on BENCH_DATABASE_URL's server.
 * For each it prints, in one run: the raw distance-scan floor, exact retrieve (the two alternate
 * query by query) and its ratio to the floor, fast retrieve with recall@10 against exact, the same for a 10k agent in the same
 * table, the touch with the HNSW index present, and write throughput. The fast columns time the
 * threshold search itself; `fast→` is what `mode: fast` ranks with the service's thresholds.
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import pgvector from "pgvector";
import { createApp } from "../src/api/app";
import { composeMemory, composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { openDatabase, queryRows } from "../src/db/client";
import { silentLogger } from "../src/lib/logger";
import type { MemoryDeps } from "../src/memory/deps";
import { announceNothing } from "../src/memory/events";
import { retrieve } from "../src/memory/retrieve/retrieve";
import { touchMemories } from "../src/memory/retrieve/touch";
import { systemClock } from "../src/providers/types";
import {
  type DatasetSpec,
  DISTRIBUTIONS,
  type Distribution,
  ensureDataset,
  MAIN,
  modelOf,
  SMALL,
  SMALL_SIZE,
} from "./lib/dataset";
import { queryVectors } from "./lib/queries";
import { fmt, printTable, quantile, timeInterleaved, timeRuns, writeResults } from "./lib/stats";

/** The service defaults (src/config.ts) for what retrieve reads. */
const BENCH_CONFIG = loadConfig({ MEMSTREAM_DATA_DIR: "memory://" });

const { values } = parseArgs({ options: { full: { type: "boolean", default: false } }, strict: false });
const BASE = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const sizes = (process.env.BENCH_SIZES ?? (values.full ? "10000,100000,1000000" : "10000,100000"))
  .split(",")
  .map(Number);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 30);
// BENCH_DISTRIBUTIONS=clustered skips the other vector sets (a 1M HNSW build each is long).
const distributions = (process.env.BENCH_DISTRIBUTIONS?.split(",") ?? DISTRIBUTIONS) as Distribution[];
const specs: DatasetSpec[] = [
  ...sizes.map((size) => ({
    size,
    dims: 512,
    distributions,
  })),
  ...(process.env.BENCH_1536 === "0"
    ? []
    : sizes
        .filter((s) => s <= (values.full ? 100_000 : 10_000))
        .map((size) => ({ size, dims: 1536, distributions: ["clustered"] as Distribution[] }))),
];
const log = (s: string) => console.log(s);

const rows: Record<string, string | number>[] = [];
const writes: Record<string, string | number>[] = [];
const results: unknown[] = [];
log(`retrieval bench: sizes ${sizes.join(", ")}; ${QUERIES} queries per figure; k = 10`);
for (const spec of specs) {
  log(`dataset ${spec.size} × ${spec.dims}-d …`);
  const url = await ensureDataset(BASE, spec, log);
  const database = await openDatabase({ url, dataDir: "", poolSize: 4 });
  try {
    // BENCH_WRITES_ONLY=1 measures only the writes (the datasets must exist).
    for (const dist of process.env.BENCH_WRITES_ONLY === "1" ? [] : spec.distributions) {
      const model = modelOf(spec.dims, dist);
      const deps: MemoryDeps = composeMemory(BENCH_CONFIG, {
        db: database.db,
        clock: systemClock,
        embedder: { modelId: model, dimensions: spec.dims, maxBatchSize: 1, embed: async () => [] },
        announce: announceNothing,
      });
      const agents = spec.size > SMALL_SIZE ? [MAIN, SMALL] : [MAIN];
      for (const agent of agents) {
        const r = await measureAgent(deps, agent, model, spec, dist);
        results.push(r);
        rows.push({
          rows: spec.size,
          dims: spec.dims,
          data: dist,
          agent: agent === MAIN ? `main ${short(spec.size)}` : `small ${short(SMALL_SIZE)}`,
          "floor p50": r.floorP50,
          "exact p50": r.exactP50,
          "exact/floor (target)": withTarget(
            r.exactP50 / r.floorP50,
            agent === MAIN ? exactTarget(spec.size) : "",
          ),
          "fast p50 (target)": withTarget(r.fastP50, agent === MAIN ? fastTarget(spec.size) : ""),
          "fast p99": r.fastP99,
          "recall@10 (target)": withTarget(r.recall, "≥ 0.99"),
          "auto→": r.auto,
          "fast→": r.fastBy,
          "touch p50": r.touchP50,
          "touch p99": r.touchP99,
        });
      }
    }
    if (spec.dims === 512) {
      for (const indexed of [false, true]) {
        // The clustered model has an HNSW index; a model of its own has none.
        const model = indexed ? modelOf(spec.dims, "clustered") : `bench-writes-${spec.dims}`;
        const w = await measureWrites(url, model, spec.dims);
        writes.push({
          rows: spec.size,
          dims: spec.dims,
          "HNSW index": indexed ? "yes" : "no",
          "batch memories/s (target)": withTarget(w.batchPerSec, indexed ? "" : "≥ 5,000"),
          "single POST p50": w.singleP50,
          "single POST p99": w.singleP99,
        });
        results.push({ spec, indexed, writes: w });
      }
    }
  } finally {
    await database.close();
  }
}
log("\nretrieve (ms; recall@10 of fast against exact, default weights)");
printTable(rows);
log(
  "\nwrites (vectors supplied, batches of 1,000 through the HTTP app in-process; target ≥ 5,000/s without the HNSW index)",
);
printTable(writes);
log(
  `\nresults: ${writeResults("retrieval", { at: new Date().toISOString(), sizes, queries: QUERIES, results })}`,
);

/** The targets for the main agent: exact within 1.1× its floor at 10k, 1.3× at 100k and above. */
function exactTarget(size: number): string {
  return size <= 10_000 ? "≤ 1.1" : "≤ 1.3";
}

function fastTarget(size: number): string {
  return size >= 1_000_000 ? "≤ 20" : size >= 100_000 ? "≤ 25" : "";
}

function withTarget(value: number, target: string): string {
  return target ? `${fmt(value)} (${target})` : fmt(value);
}

function short(n: number): string {
  return n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`;
}

async function measureAgent(deps: MemoryDeps, agent: string, model: string, spec: DatasetSpec, dist: string) {
  const db = deps.db;
  const queries = await queryVectors(db, agent, model, spec.dims, dist, QUERIES);
  // The floor: every cosine distance of the agent's vectors, computed once each (OFFSET 0 keeps
  // the subquery from being flattened into min and max, which would compute it twice).
  const floorOf = (i: number) =>
    queryRows(
      db,
      sql`SELECT min(d), max(d) FROM (SELECT embedding <=> ${queries[i % queries.length]}::vector AS d
          FROM memory_embeddings WHERE agent_id = ${agent} AND model = ${model} OFFSET 0) s`,
    );
  // The fast columns time the threshold search itself, at every size (thresholds 0); `fast→`
  // says what `mode: fast` answers with the service's thresholds (fast-thresholds.ts).
  const search = { ...deps, retrieval: { ...deps.retrieval, fast: { minStream: 0, minShare: 0 } } };
  const ask = (i: number, mode: "exact" | "fast" | "auto", on: MemoryDeps = deps) =>
    retrieve(on, agent, {
      queryEmbedding: pgvector.fromSql(queries[i % queries.length] as string) as number[],
      embeddingModel: model,
      k: 10,
      touch: false,
      mode,
    });
  // Floor and exact alternate query by query, so their ratio sees the same load.
  const exactIds: string[][] = [];
  const [floor = [], exact = []] = await timeInterleaved(QUERIES, 3, [
    floorOf,
    async (i) => {
      exactIds[i] = (await ask(i, "exact")).memories.map((m) => m.id);
    },
  ]);
  const fastIds: string[][] = [];
  const fast = await timeRuns(QUERIES, 3, async (i) => {
    fastIds[i] = (await ask(i, "fast", search)).memories.map((m) => m.id);
  });
  let hits = 0;
  fastIds.forEach((ids, i) => {
    hits += ids.filter((id) => exactIds[i]?.includes(id)).length;
  });
  const auto = (await ask(0, "auto")).mode;
  const fastBy = (await ask(0, "fast")).mode;
  // The touch of 10 returned rows, with the HNSW index on the vectors table.
  const ids = (exactIds[0] ?? []).slice(0, 10);
  const touch = await timeRuns(QUERIES, 3, () => touchMemories(db, agent, ids, new Date()));
  return {
    size: spec.size,
    dims: spec.dims,
    dist,
    agent,
    floorP50: quantile(floor, 0.5),
    exactP50: quantile(exact, 0.5),
    exactP99: quantile(exact, 0.99),
    fastP50: quantile(fast, 0.5),
    fastP99: quantile(fast, 0.99),
    recall: hits / (10 * QUERIES),
    auto,
    fastBy,
    touchP50: quantile(touch, 0.5),
    touchP99: quantile(touch, 0.99),
  };
}

/** Batch POST throughput (1,000 per request) and single POST latency, vectors supplied. */
async function measureWrites(url: string, model: string, dims: number) {
  const config = loadConfig({ DATABASE_URL: url, EMBEDDING_PROVIDER: "offline" });
  const system = await composeSystem(config, silentLogger);
  const app = createApp(system.app);
  const vec = () => Array.from({ length: dims }, () => Math.random() * 2 - 1);
  // Bodies are built before the clock starts: the figure is the service's, not the client's.
  const body = (n: number) =>
    JSON.stringify({
      memories: Array.from({ length: n }, (_, i) => ({
        description: `write ${i}`,
        importance: 5,
        embedding: vec(),
        embeddingModel: model,
      })),
    });
  const post = (json: string) =>
    app.request("/v1/agents/bench-writer/memories", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: json,
    });
  try {
    const batches = 5;
    await post(body(10)); // warm-up: connections, prepared statements
    const bodies = Array.from({ length: batches }, () => body(1000));
    const t0 = performance.now();
    for (const json of bodies) {
      const res = await post(json);
      if (res.status !== 201) throw new Error(`batch POST failed: ${res.status} ${await res.text()}`);
    }
    const perSec = (batches * 1000) / ((performance.now() - t0) / 1000);
    const one = body(1);
    const single = await timeRuns(50, 3, async () => {
      const res = await post(one);
      if (res.status !== 201) throw new Error(`POST failed: ${res.status}`);
    });
    return { batchPerSec: perSec, singleP50: quantile(single, 0.5), singleP99: quantile(single, 0.99) };
  } finally {
    await system.database.db.execute(sql`DELETE FROM memories WHERE agent_id = 'bench-writer'`);
    await system.close();
  }
}
