/**
 * Sections and retention at stream scale, on a database of its own (created and dropped):
 * `nice npx tsx bench/sections-retention.ts [--memories 20000] [--runs 30]`.
 * 1. A sectioned retrieve (reflections k 5, plans k 5, observations k 20: one statement) against
 *    the same three sections as three retrieves with `kinds`, p50/p90 of each, and their ratio.
 * 2. A retention dry run over the whole stream, then the run deleting half of it in batches of
 *    500 (rows per second), with every tenth memory cited by a reflection.
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { composeMemory } from "../src/compose";
import { loadConfig } from "../src/config";
import { openDatabase } from "../src/db/client";
import type { MemoryDeps } from "../src/memory/deps";
import { announceNothing } from "../src/memory/events";
import { forget } from "../src/memory/retention/forget";
import { retrieve } from "../src/memory/retrieve/retrieve";
import { fmt, quantile, timeRuns } from "./lib/stats";

const { values: a } = parseArgs({
  options: { memories: { type: "string", default: "20000" }, runs: { type: "string", default: "30" } },
});
const N = Number(a.memories);
const runs = Number(a.runs);
const DIMS = 64;
const base = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const name = `memstream_bench_sections_${process.pid}`;
const admin = postgres(base.toString(), { max: 1, onnotice: () => {} });
await admin.unsafe(`CREATE DATABASE ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
const database = await openDatabase({ url: url.toString(), dataDir: "", poolSize: 2 });
await database.migrate();
const db = database.db;
const agent = "bench-sections";
const model = `bench@${DIMS}`;
const vec = () => Array.from({ length: DIMS }, () => Math.random() - 0.5);

try {
  // 80% observations, 15% reflections (each citing the observation ten before it), 5% plans.
  await db.execute(sql`
    INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at, importance,
      importance_status, embedding_status, embedding_model, citations)
    SELECT 'm' || g, ${agent},
      CASE WHEN g % 20 = 0 THEN 'plan' WHEN g % 20 < 4 THEN 'reflection' ELSE 'observation' END,
      'memory ' || g || ' about topic ' || (g % 50),
      now() - g * interval '1 minute', now() - g * interval '1 minute', 1 + g % 10, 'ready', 'ready', ${model},
      CASE WHEN g % 20 BETWEEN 1 AND 3 AND g > 10 THEN ARRAY['m' || (g - 10)] ELSE '{}'::text[] END
    FROM generate_series(1, ${N}) g`);
  await db.execute(sql`
    INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
    SELECT m.id, m.agent_id, ${model}, ${DIMS},
      (SELECT array_agg(random() - 0.5) FROM generate_series(1, ${DIMS}) WHERE m.id IS NOT NULL)::vector, 1
    FROM memories m WHERE m.agent_id = ${agent}`);
  await db.execute(sql`ANALYZE memories; ANALYZE memory_embeddings`);

  const base = composeMemory(loadConfig({ MEMSTREAM_DATA_DIR: "memory://" }), {
    db,
    clock: { now: () => new Date() },
    embedder: { modelId: model, dimensions: DIMS, maxBatchSize: 1, embed: async (t) => t.map(vec) },
    announce: announceNothing,
  });
  const deps: MemoryDeps = { ...base, retrieval: { ...base.retrieval, fresh: { max: 0, timeoutMs: 0 } } };
  const q = { query: "topic 7", touch: false } as const;
  const parts = [
    { kinds: ["reflection" as const], k: 5 },
    { kinds: ["plan" as const], k: 5 },
    { kinds: ["observation" as const], k: 20 },
  ];
  const one = await timeRuns(runs, 3, () => retrieve(deps, agent, { ...q, sections: parts }));
  const three = await timeRuns(runs, 3, async () => {
    for (const p of parts) await retrieve(deps, agent, { ...q, kinds: p.kinds, k: p.k });
  });
  const line = (label: string, xs: number[]) =>
    console.log(`${label}: p50 ${fmt(quantile(xs, 0.5))} ms, p90 ${fmt(quantile(xs, 0.9))} ms`);
  console.log(`${N} memories, ${DIMS}-d vectors, ${runs} runs each`);
  line("sections, one statement", one);
  line("three retrieves with kinds", three);
  console.log(`ratio three/one at p50: ${fmt(quantile(three, 0.5) / quantile(one, 0.5))}`);

  const policy = { maxMemories: Math.floor(N / 2) };
  let t0 = performance.now();
  const dry = await forget(deps, agent, { dryRun: true, policy });
  console.log(`dry run: ${dry.count} would go, ${fmt(performance.now() - t0)} ms`);
  t0 = performance.now();
  const run = await forget(deps, agent, { policy });
  const ms = performance.now() - t0;
  console.log(
    `run: ${run.count} deleted (same as dry run: ${run.count === dry.count}) in ${fmt(ms)} ms, ${fmt((run.count / ms) * 1000)} memories/s`,
  );
} finally {
  await database.close();
  await admin.unsafe(`DROP DATABASE ${name} WITH (FORCE)`);
  await admin.end();
}
