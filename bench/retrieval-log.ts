/**
 * What the retrieval log costs a retrieve: `npx tsx bench/retrieval-log.ts`. One agent of
 * BENCH_SIZE memories (default 10,000; 64-d random vectors, importance 1–10, 90 days) in a
 * database of the bench's own (memstream_bench_learning on BENCH_DATABASE_URL's server), its log
 * already full (MEMSTREAM_RETRIEVAL_LOG_MAX, 1,000), so every retrieve also prunes. retrieve()
 * with the log (new) and without it (base, log max 0), back to back in alternating order, on the
 * same query vectors (BENCH_TOUCH=1: touching what they return, as by default); prints the
 * median per-pair ratio (bench/lib/paired.ts).
 */
import postgres from "postgres";
import { composeMemory } from "../src/compose";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db/client";
import { createMemories } from "../src/memory/create-memories";
import type { MemoryDeps } from "../src/memory/deps";
import { announceNothing } from "../src/memory/events";
import { RETRIEVAL_LOG_DEFAULTS } from "../src/memory/learning/log";
import { retrieve } from "../src/memory/retrieve/retrieve";
import { systemClock } from "../src/providers/types";
import { pairedRuns, pairedSummary } from "./lib/paired";
import { printTable } from "./lib/stats";

const SIZE = Number(process.env.BENCH_SIZE ?? 10_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 40);
const DIMS = 64;
const MODEL = "bench-log-64";
const AGENT = `bench-log-${SIZE}`;
// BENCH_TOUCH=1: the retrieves touch what they return (the default), so the log's insert is pipelined with the touch.
const TOUCH = process.env.BENCH_TOUCH === "1";

const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const admin = postgres(base, { max: 1, onnotice: () => {} });
const name = "memstream_bench_learning";
if ((await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`).length === 0)
  await admin.unsafe(`CREATE DATABASE "${name}"`);
await admin.end();
const url = new URL(base);
url.pathname = `/${name}`;
const database = await openDatabase({ url: url.toString(), dataDir: "", poolSize: 2 });
await database.migrate();

// A seeded generator, so every run ranks the same data.
let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const vector = () => Array.from({ length: DIMS }, () => rand() * 2 - 1);

const deps: MemoryDeps = composeMemory(loadConfig({ MEMSTREAM_DATA_DIR: "memory://" }), {
  db: database.db,
  clock: systemClock,
  embedder: { modelId: MODEL, dimensions: DIMS, maxBatchSize: 1, embed: async () => [] },
  announce: announceNothing,
});
const [{ n }] = (await database.db.execute(
  `SELECT count(*)::int AS n FROM memories WHERE agent_id = '${AGENT}'`,
)) as unknown as [{ n: number }];
if (n < SIZE) {
  console.log(`seeding ${SIZE} memories …`);
  const day = 86_400_000;
  for (let i = n; i < SIZE; i += 1_000)
    await createMemories(
      deps,
      AGENT,
      Array.from({ length: Math.min(1_000, SIZE - i) }, (_, j) => ({
        description: `synthetic memory ${i + j}`,
        createdAt: new Date(Date.now() - rand() * 90 * day).toISOString(),
        importance: 1 + Math.floor(rand() * 10),
        embedding: vector(),
        embeddingModel: MODEL,
      })),
    );
  await database.db.execute("ANALYZE memories");
}
const logged = { ...deps, retrieval: { ...deps.retrieval, log: RETRIEVAL_LOG_DEFAULTS } };
const unlogged = { ...deps, retrieval: { ...deps.retrieval, log: { ...RETRIEVAL_LOG_DEFAULTS, max: 0 } } };
// Fill the log to its bound, so the measured retrieves prune as a busy agent's do.
for (let i = 0; i < RETRIEVAL_LOG_DEFAULTS.max; i++)
  await retrieve(logged, AGENT, { queryEmbedding: vector(), touch: false, k: 10 });
const queries = Array.from({ length: QUERIES }, vector);
const p = await pairedRuns(QUERIES, async (side, i) => {
  const r = await retrieve(side === "new" ? logged : unlogged, AGENT, {
    queryEmbedding: queries[i],
    touch: TOUCH,
    k: 10,
  });
  return r.memories.map((m) => m.id).join();
});
console.log(
  `retrieval log: ${SIZE} memories, log of ${RETRIEVAL_LOG_DEFAULTS.max}, touch ${TOUCH}; base = no log, new = logged`,
);
printTable([pairedSummary(p)]);
await database.close();
