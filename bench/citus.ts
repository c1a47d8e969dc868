/**
 * One node against the Citus cluster: `npx tsx bench/citus.ts` (docs/adr/0011-scale-out.md).
 *
 * Starts the local cluster when it is not running (scripts/citus-cluster.sh: a coordinator and two
 * workers, three PostgreSQL instances on this machine) and makes two databases on it: one on the
 * coordinator alone, plain tables (one node: the same binaries and settings, so the pair differs
 * only by the distribution), and one on every node, distributed by agent_id (MEMSTREAM_DISTRIBUTED=citus).
 * Each gets N agents × M memories through the API in-process (batches of 100, BENCH_CITUS_CLIENTS
 * writers, vectors and importance supplied so no model runs), then the same retrieves, interleaved
 * between the two so machine load falls on both alike:
 * - write throughput (memories per second, wall clock);
 * - retrieve p50/p95 per plan (`ranking.plan` of the answer: full, sections, threshold, fast; and
 *   word and hybrid relevance);
 * - the hop: one statement that reads one agent's row by key, on each (what any routed statement
 *   pays on top: the coordinator plans, sends it to the worker, relays the rows).
 * The workers are on the same machine, so the hop is loopback and the cluster has no more cores
 * than the one node: the figures give the cost of distribution, not the capacity it adds.
 * Knobs: BENCH_CITUS_AGENTS (8), BENCH_CITUS_MEMORIES (4000 per agent), BENCH_CITUS_DIMS (64),
 * BENCH_CITUS_QUERIES (40 per plan and target), BENCH_CITUS_CLIENTS (4).
 */
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { createApp } from "../src/api/app";
import { composeSystem, type System } from "../src/compose";
import { loadConfig } from "../src/config";
import { silentLogger } from "../src/lib/logger";
import { createHnswIndexSql, forgetHnswIndexes } from "../src/memory/retrieve/hnsw-index";
import { startStubOpenAI } from "../test/support/stub-openai";
import { printTable, quantile, writeResults } from "./lib/stats";

const AGENTS = Number(process.env.BENCH_CITUS_AGENTS ?? 8);
const MEMORIES = Number(process.env.BENCH_CITUS_MEMORIES ?? 4_000);
const DIMS = Number(process.env.BENCH_CITUS_DIMS ?? 64);
const QUERIES = Number(process.env.BENCH_CITUS_QUERIES ?? 40);
const CLIENTS = Number(process.env.BENCH_CITUS_CLIENTS ?? 4);
const BATCH = 100;
const MODEL = "bench-citus";
const WORDS = Array.from({ length: 400 }, (_, i) => `w${(i * 7_919).toString(36)}`);

const cluster = (...args: string[]) =>
  execFileSync("bash", ["scripts/citus-cluster.sh", ...args], { encoding: "utf8" }).trim();
const coordinator = new URL(cluster("start"));

// Deterministic data: the same memories and queries on both targets.
let seed = 42;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const vector = () => Array.from({ length: DIMS }, () => rand() * 2 - 1);
const sentence = () => Array.from({ length: 8 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");
const agentIds = Array.from({ length: AGENTS }, (_, i) => `bench-citus-${i}`);
const batches = agentIds.flatMap((agent) =>
  Array.from({ length: Math.ceil(MEMORIES / BATCH) }, (_, b) => ({
    agent,
    body: {
      memories: Array.from({ length: Math.min(BATCH, MEMORIES - b * BATCH) }, () => ({
        description: sentence(),
        importance: 1 + Math.floor(rand() * 10),
        embedding: vector(),
        embeddingModel: MODEL,
        createdAt: new Date(Date.UTC(2026, 0, 1) + Math.floor(rand() * 90 * 86_400_000)).toISOString(),
      })),
    },
  })),
);
// Shuffled, so writers hit several agents at once, as a real fleet does.
for (let i = batches.length - 1; i > 0; i--) {
  const j = Math.floor(rand() * (i + 1));
  [batches[i], batches[j]] = [batches[j] as (typeof batches)[number], batches[i] as (typeof batches)[number]];
}

type Target = { name: string; system: System; call: (path: string, body: unknown) => Promise<Response> };
const stub = await startStubOpenAI();
const targets: Target[] = [];
for (const [name, distributed] of [
  ["one node", false],
  ["cluster (2 workers)", true],
] as const) {
  const db = distributed ? "memstream_bench_citus" : "memstream_bench_single";
  if (distributed) cluster("createdb", db);
  else {
    const admin = postgres({ ...pgOpts(coordinator), database: "postgres" });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${db}`);
    await admin.end();
    const one = postgres({ ...pgOpts(coordinator), database: db });
    await one.unsafe("CREATE EXTENSION vector; CREATE EXTENSION btree_gin");
    await one.end();
  }
  const url = new URL(coordinator);
  url.pathname = `/${db}`;
  const config = loadConfig({
    DATABASE_URL: url.toString(),
    MEMSTREAM_DISTRIBUTED: distributed ? "citus" : "off",
    OPENAI_BASE_URL: stub.url,
    OPENAI_API_KEY: "bench",
    EMBEDDING_PROVIDER: "openai",
    EMBEDDING_MODEL: "stub-embed",
    EMBEDDING_DIMENSIONS: "64",
    MEMSTREAM_WORKERS: "off",
    MEMSTREAM_FAST_MIN_STREAM: "1000",
    MEMSTREAM_FAST_MIN_SHARE: "0",
  });
  const system = await composeSystem(config, silentLogger);
  const app = createApp(system.app);
  targets.push({
    name,
    system,
    call: (path, body) =>
      Promise.resolve(
        app.request(path, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
      ),
  });
}

const load = () => loadavg()[0]?.toFixed(1) ?? "?";
console.log(
  `bench/citus: ${AGENTS} agents × ${MEMORIES} memories, ${DIMS}-d, ${CLIENTS} writers; load ${load()}`,
);

// Writes: each target in turn (the load of one write run is the whole machine's).
const writes: Record<string, string | number>[] = [];
for (const t of targets) {
  const queue = [...batches];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let b = queue.shift(); b; b = queue.shift()) {
        const res = await t.call(`/v1/agents/${b.agent}/memories`, b.body);
        if (res.status !== 201) throw new Error(`${t.name}: POST ${res.status} ${await res.text()}`);
      }
    }),
  );
  const s = (performance.now() - t0) / 1000;
  writes.push({
    target: t.name,
    memories: AGENTS * MEMORIES,
    seconds: s.toFixed(1),
    "memories/s": Math.round((AGENTS * MEMORIES) / s),
    load: load(),
  });
}
printTable(writes);

// The HNSW index of the model, on both (on the cluster: one per shard), then fresh statistics.
for (const t of targets) {
  const db = t.system.database.db;
  await db.execute(
    createHnswIndexSql({ model: MODEL, dimensions: DIMS, storage: "vector" }, { m: 16, efConstruction: 64 }),
  );
  forgetHnswIndexes(db);
  await db.execute(sql.raw("ANALYZE"));
}

// Retrieves, interleaved target by target for each query.
const kinds: { label: string; body: () => Record<string, unknown> }[] = [
  { label: "vector, whole stream", body: () => ({ queryEmbedding: vector(), embeddingModel: MODEL, k: 10 }) },
  {
    label: "vector, kinds filter",
    body: () => ({ queryEmbedding: vector(), embeddingModel: MODEL, k: 10, kinds: ["observation"] }),
  },
  {
    label: "mode fast",
    body: () => ({ queryEmbedding: vector(), embeddingModel: MODEL, k: 10, mode: "fast" }),
  },
  { label: "word relevance", body: () => ({ query: sentence(), relevance: "lexical", k: 10 }) },
  {
    label: "sections",
    body: () => ({
      queryEmbedding: vector(),
      embeddingModel: MODEL,
      sections: [
        { kinds: ["observation"], k: 5 },
        { kinds: ["reflection"], k: 5 },
      ],
    }),
  },
  {
    label: "touch (default)",
    body: () => ({ queryEmbedding: vector(), embeddingModel: MODEL, k: 10, touch: true }),
  },
];
const rows: Record<string, string | number>[] = [];
const samples: Record<string, unknown> = {};
for (const kind of kinds) {
  const ms: number[][] = targets.map(() => []);
  const plans = targets.map(() => new Set<string>());
  for (let q = 0; q < QUERIES + 3; q++) {
    const agent = agentIds[q % AGENTS];
    const body = { touch: false, ...kind.body() };
    for (const [i, t] of targets.entries()) {
      const t0 = performance.now();
      const res = await t.call(`/v1/agents/${agent}/retrieve`, body);
      const took = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${t.name} ${kind.label}: ${res.status} ${await res.text()}`);
      const answer = (await res.json()) as { ranking?: { plan?: string } };
      if (q >= 3) {
        ms[i]?.push(took);
        plans[i]?.add(answer.ranking?.plan ?? "?");
      }
    }
  }
  for (const [i, t] of targets.entries()) {
    const m = ms[i] ?? [];
    rows.push({
      retrieve: kind.label,
      plan: [...(plans[i] ?? [])].join(","),
      target: t.name,
      p50: quantile(m, 0.5).toFixed(1),
      p95: quantile(m, 0.95).toFixed(1),
    });
  }
  samples[kind.label] = ms;
}
printTable(rows);

// The hop: a statement that reads no table (answered by the coordinator itself) against one that
// reads one agent's row by key (on the cluster: sent to that agent's worker), through each
// target's pool, interleaved; the difference on the cluster is what routing adds per statement.
const hop: Record<string, string | number>[] = [];
const statements = [
  { label: "SELECT 1 (no table)", run: (_q: number) => sql`SELECT 1` },
  {
    label: "one row by agent key",
    run: (q: number) => sql`SELECT agent_id FROM agent_settings WHERE agent_id = ${agentIds[q % AGENTS]}`,
  },
];
const hopMs = targets.map(() => statements.map((): number[] => []));
for (let q = 0; q < QUERIES * 10; q++) {
  for (const [i, t] of targets.entries()) {
    for (const [j, st] of statements.entries()) {
      const t0 = performance.now();
      await t.system.database.db.execute(st.run(q));
      if (q >= 20) hopMs[i]?.[j]?.push(performance.now() - t0);
    }
  }
}
for (const [i, t] of targets.entries()) {
  for (const [j, st] of statements.entries()) {
    const m = hopMs[i]?.[j] ?? [];
    hop.push({
      statement: st.label,
      target: t.name,
      p50: quantile(m, 0.5).toFixed(2),
      p95: quantile(m, 0.95).toFixed(2),
    });
  }
}
printTable(hop);
console.log(`load at the end ${load()}`);
writeResults("citus", { agents: AGENTS, memories: MEMORIES, dims: DIMS, writes, rows, hop, samples });

for (const t of targets) await t.system.close();
await stub.close();

function pgOpts(u: URL) {
  return {
    host: u.hostname,
    port: Number(u.port),
    username: u.username || "postgres",
    max: 1,
    onnotice: () => {},
  };
}
