/**
 * The exact retrieve against its floor, back to back on an existing bench database:
 * `npx tsx bench/explore/exact-floor.ts [--db memstream_bench_100000_512] [--agent bench-main]
 *  [--model bench-clustered-512] [--runs 15] [--explain]`.
 * Each round runs the floor (the same raw distance scan as bench/retrieval.ts) and then the exact
 * retrieve with the same query vector, so both see the same machine load; prints p50s and the ratio.
 * `--explain` prints EXPLAIN (ANALYZE, BUFFERS) of both, run as the service runs them.
 * `--lists 300,150`: instead, the threshold statement alone with each list size (threshold.ts's
 * `listSize`; `full` = the full statement, e.g. `100,full` = lists against ranking every memory), alternating in the same loop with the floor, in retrieve's session settings; prints
 * p50 and ratio per size, the median per-query ratio to the first size, and fails if any ranking differs.
 * `--stages`: instead, where exact retrieve's time goes, each stage timed alone, interleaved query
 * by query: the floor; the distances materialized with their bounds (the statement's first CTEs);
 * the ranking statement alone; the same in a transaction with retrieve's session settings; the
 * whole retrieve() (agent state read, statement building, rows to objects); and the statement's
 * planning time (EXPLAIN (SUMMARY), no execution).
 * `--base <checkout>`: instead, this checkout's retrieve() against that one's (e.g. `git worktree
 * add ../base <commit>`, node_modules linked), paired per query and alternating (ABBA), 2 rounds after
 * a warm-up: p50 per side, the median of the per-pair ratios new/base, and rankings that differ.
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import pgvector from "pgvector";
import { composeMemory } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { openDatabase, queryRows } from "../../src/db/client";
import { announceNothing } from "../../src/memory/events";
import { readAgentState } from "../../src/memory/retrieve/agent-state";
import { exactStatementFor, useExactScan } from "../../src/memory/retrieve/execute";
import { DEFAULT_PRESET, PRESETS } from "../../src/memory/retrieve/presets";
import { retrieve } from "../../src/memory/retrieve/retrieve";
import { fullRankQuery } from "../../src/memory/retrieve/statements/full";
import type { RankParams } from "../../src/memory/retrieve/statements/params";
import { thresholdRankQuery } from "../../src/memory/retrieve/statements/threshold";
import { systemClock } from "../../src/providers/types";
import { pairedRuns, pairedSummary, retrieveOf } from "../lib/paired";
import { quantile } from "../lib/stats";

const { values: a } = parseArgs({
  options: {
    db: { type: "string", default: "memstream_bench_100000_512" },
    agent: { type: "string", default: "bench-main" },
    model: { type: "string", default: "bench-clustered-512" },
    runs: { type: "string", default: "15" },
    explain: { type: "boolean", default: false },
    lists: { type: "string" },
    stages: { type: "boolean", default: false },
    base: { type: "string" },
  },
});
const base = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
base.pathname = `/${a.db}`;
const database = await openDatabase({ url: base.toString(), dataDir: "", poolSize: 2 });
const db = database.db;
const runs = Number(a.runs);
const agent = a.agent as string;
const model = a.model as string;

// Query vectors as bench/retrieval.ts makes them for clustered data: stored vectors plus noise.
const stored = await queryRows<{ e: string }>(
  db,
  sql`SELECT embedding::text AS e FROM memory_embeddings WHERE agent_id = ${agent} AND model = ${model}
      ORDER BY memory_id LIMIT ${runs}`,
);
const queries = stored.map((r) => (pgvector.fromSql(r.e) as number[]).map((x, i) => x + ((i % 7) - 3) / 10));
const floorSql = (q: number[]) =>
  // OFFSET 0, as in bench/retrieval.ts: flattened into min and max, the distance is computed twice.
  sql`SELECT min(d), max(d) FROM (SELECT embedding <=> ${pgvector.toSql(q)}::vector AS d
      FROM memory_embeddings WHERE agent_id = ${agent} AND model = ${model} OFFSET 0) s`;
const deps = composeMemory(loadConfig({ MEMSTREAM_DATA_DIR: "memory://" }), {
  db,
  clock: systemClock,
  embedder: { modelId: model, dimensions: queries[0]?.length ?? 0, maxBatchSize: 1, embed: async () => [] },
  announce: announceNothing,
});
const exact = (q: number[], rank = retrieve) =>
  rank(deps, agent, { queryEmbedding: q, embeddingModel: model, k: 10, touch: false, mode: "exact" });

const time = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};
// The ranking retrieve() uses for a vector-only request with no ranking fields: the default
// preset's weights and decay, vector relevance (there is no query text), and the statement it
// picks for the agent's stream size.
const ranking = PRESETS[DEFAULT_PRESET];
const { smallStream, largeStream } = await readAgentState(db, agent, {}, 0);
const stream = { small: smallStream, large: largeStream };
const paramsOf = (q: number[]): RankParams => ({
  agentId: agent,
  filters: {},
  query: { vector: pgvector.toSql(q), model, dimensions: q.length },
  now: new Date(),
  decay: ranking.decay,
  recencyUnit: ranking.recencyUnit,
  weights: ranking.weights,
  k: 10,
  touch: false,
});
const statementOf = (q: number[]) => exactStatementFor(paramsOf(q), stream);

if (a.lists) {
  const sizes = a.lists.split(",");
  const ms = sizes.map(() => [] as number[]);
  const ratios = sizes.map(() => [] as number[]);
  const floors: number[] = [];
  let differ = 0;
  for (let i = -2; i < queries.length; i++) {
    const q = queries[Math.max(0, i)] as number[];
    const f = await time(() => queryRows(db, floorSql(q)));
    const t: number[] = [];
    const ids: string[] = [];
    // One "now" for every size, so their rankings can be compared score for score.
    const params = paramsOf(q);
    // Alternate which size goes first, so neither always runs on a warmer cache.
    const order = sizes.map((_, j) => j);
    if (i % 2) order.reverse();
    for (const j of order) {
      t[j] = await time(async () => {
        const rows = await db.transaction(async (tx) => {
          await useExactScan(tx, true);
          const size = sizes[j] as string;
          return queryRows<{ id: string; score: number }>(
            tx,
            size === "full" ? fullRankQuery(params) : thresholdRankQuery(params, { listSize: Number(size) }),
          );
        });
        ids[j] = rows.map((r) => `${r.id}:${r.score}`).join(",");
      });
    }
    if (ids.some((x) => x !== ids[0])) differ++;
    if (i < 0) continue;
    floors.push(f);
    for (const j of sizes.keys()) {
      ms[j]?.push(t[j] as number);
      ratios[j]?.push((t[j] as number) / (t[0] as number));
    }
  }
  for (const [j, size] of sizes.entries()) {
    const r = ratios[j] ?? [];
    console.log(
      `list ${size}: p50 ${quantile(ms[j] ?? [], 0.5).toFixed(1)} ms, /floor ${(quantile(ms[j] ?? [], 0.5) / quantile(floors, 0.5)).toFixed(2)}, per-query ratio to list ${sizes[0]}: median ${quantile(r, 0.5).toFixed(3)} (q25 ${quantile(r, 0.25).toFixed(3)}, q75 ${quantile(r, 0.75).toFixed(3)})`,
    );
  }
  console.log(
    `floor p50 ${quantile(floors, 0.5).toFixed(1)} ms; rankings that differ between sizes: ${differ}`,
  );
  await database.close();
  process.exit(differ > 0 ? 1 : 0);
}

if (a.base) {
  const baseRetrieve = await retrieveOf(a.base);
  const p = await pairedRuns(queries.length, async (side, i) => {
    const r = await exact(queries[i] as number[], side === "base" ? baseRetrieve : retrieve);
    // Scores to 1e-9: the two calls' "now" differ by milliseconds.
    return r.memories.map((m) => `${m.id}:${m.score.toFixed(9)}`).join();
  });
  const summary = pairedSummary(p);
  console.log(
    `${a.db} ${agent} ${model}: base p50 ${summary["base p50 ms"]} ms, new p50 ${summary["new p50 ms"]} ms, median pair ratio ${summary["new/base, median pair"]} (q25–q75 ${summary["q25–q75"]}); rankings that differ: ${p.differ}`,
  );
  await database.close();
  process.exit(p.differ > 0 ? 1 : 0);
}

if (a.stages) {
  const distances = (q: number[]) =>
    queryRows(
      db,
      sql`WITH d AS MATERIALIZED (SELECT e.memory_id AS id, 1 - (e.embedding <=> ${pgvector.toSql(q)}::vector) AS rel
        FROM memory_embeddings e WHERE e.agent_id = ${agent} AND e.model = ${model} AND e.dimensions = ${q.length})
        SELECT min(rel), max(rel), count(*) FROM d`,
    );
  const stages: [string, (q: number[]) => Promise<unknown>][] = [
    ["floor (each distance once)", (q) => queryRows(db, floorSql(q))],
    ["distances materialized + bounds", distances],
    ["ranking statement alone", (q) => queryRows(db, statementOf(q).sql)],
    [
      "statement in a transaction + settings",
      (q) =>
        db.transaction(async (tx) => {
          const { plan, sql: statement } = statementOf(q);
          await useExactScan(tx, plan.workers);
          return queryRows(tx, statement);
        }),
    ],
    ["retrieve()", exact],
  ];
  const ms = stages.map(() => [] as number[]);
  const planning: number[] = [];
  for (let i = -2; i < queries.length; i++) {
    const q = queries[Math.max(0, i)] as number[];
    for (const [j, [, run]] of stages.entries()) {
      const t = await time(() => run(q));
      if (i >= 0) ms[j]?.push(t);
    }
    const plan = await queryRows<{ "QUERY PLAN": string }>(db, sql`EXPLAIN (SUMMARY) ${statementOf(q).sql}`);
    const line = plan.map((r) => r["QUERY PLAN"]).find((l) => l.startsWith("Planning Time"));
    if (i >= 0 && line) planning.push(Number(line.replace(/[^0-9.]/g, "")));
  }
  const floorP50 = quantile(ms[0] ?? [], 0.5);
  let previous = 0;
  for (const [j, [label]] of stages.entries()) {
    const p = quantile(ms[j] ?? [], 0.5);
    console.log(
      `${label.padEnd(40)} p50 ${p.toFixed(1).padStart(6)} ms  ×floor ${(p / floorP50).toFixed(2)}  +${(p - previous).toFixed(1)} ms`,
    );
    previous = p;
  }
  console.log(
    `${"planning the statement (of the above)".padEnd(40)} p50 ${quantile(planning, 0.5).toFixed(1).padStart(6)} ms`,
  );
  await database.close();
  process.exit(0);
}

const floor: number[] = [];
const ex: number[] = [];
const cands: number[] = [];
for (let i = -2; i < queries.length; i++) {
  const q = queries[Math.max(0, i)] as number[];
  const f = await time(() => queryRows(db, floorSql(q)));
  const e = await time(async () => cands.push((await exact(q)).candidates));
  if (i >= 0) floor.push(f) && ex.push(e);
}
const p50 = (xs: number[]) => quantile(xs, 0.5).toFixed(1);
console.log(
  `${a.db} ${agent} ${model}: floor p50 ${p50(floor)} ms, exact p50 ${p50(ex)} ms, ratio ${(quantile(ex, 0.5) / quantile(floor, 0.5)).toFixed(2)}, candidates p50 ${quantile(cands, 0.5)} max ${Math.max(...cands)}`,
);

if (a.explain) {
  const q = queries[0] as number[];
  const { plan: chosen, sql: statement } = statementOf(q);
  const explain = async (label: string, body: ReturnType<typeof sql>) => {
    const plan = await db.transaction(async (tx) => {
      await useExactScan(tx, chosen.workers);
      return queryRows<{ "QUERY PLAN": string }>(tx, sql`EXPLAIN (ANALYZE, BUFFERS) ${body}`);
    });
    console.log(
      `\n${label}\n${plan.map((r) => r["QUERY PLAN"].replace(/\[[-0-9.,e]+\]/g, "[…]")).join("\n")}`,
    );
  };
  await explain("floor", floorSql(q));
  await explain(`exact (${chosen.statement})`, statement);
}
await database.close();
