/**
 * The exact ranking statement alone, per relevance source, on the LoCoMo agents that
 * `npm run eval:locomo` loaded (SCALE=4: the 11k copy bench/default-latency.ts builds):
 * `EVAL_DATABASE_URL=… SCALE=4 nice npx tsx bench/explore/relevance-sql.ts`.
 * - default: interleaved statement timings (p50, p90) per variant, with retrieve()'s session settings.
 * - `EXPLAIN=<variant>`: EXPLAIN (ANALYZE, BUFFERS) of that variant's statement for question `Q`.
 * - `DUMP=file`: writes every variant's ranked ids and score components (full precision) for
 *   the questions to `file`; `CHECK=file` compares them with an earlier dump and fails on any
 *   difference (a rewrite of the relevance SQL must not change one bit of a ranking).
 * - `BASE=<checkout>`: this checkout's statement against that one's (e.g. `git worktree add
 *   ../base <commit>`, node_modules linked), paired per question and interleaved (ABBA): p50 per
 *   side and the median of the per-pair ratios new/base with its quartiles. On a noisy machine
 *   separate runs differ by ±20 %, pairs far less. Questions without and with " in May 2023".
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import pgvector from "pgvector";
import postgres from "postgres";
import { exactStatementFor } from "../../src/memory/retrieve/execute";
import { WORKERS_MIN_STREAM } from "../../src/memory/retrieve/plan";
import { PRESETS } from "../../src/memory/retrieve/presets";
import type { RelevanceKind } from "../../src/memory/retrieve/ranking/relevance/kinds";
import type { RankParams } from "../../src/memory/retrieve/statements/params";
import { TIME_WINDOW_SLACK_S, timeWindow } from "../../src/memory/retrieve/time-window";
import { openLocomoLatency } from "../lib/locomo-latency";
import { quantile } from "../lib/stats";

const { url, queries, system, conv, agent } = await openLocomoLatency();
const embedder = system.providers.embedder;
const asked = queries.filter((q) => q.conversation_id === conv).slice(0, Number(process.env.N ?? 20));
// Before closing the system: the offline embedder's threads close with it.
const vectors = await embedder.embed(asked.map((q) => q.question));
await system.close();
const db = postgres(url, { max: 1, onnotice: () => {} });
const dialect = new PgDialect();

const balanced = PRESETS.balanced;
type Variant = { relevance: RelevanceKind; share: number; weights: RankParams["weights"]; time: boolean };
const relOnly = { recency: 0, importance: 0, relevance: 1 };
const ALL: Record<string, Variant> = {
  paper: { relevance: "vector", share: 0.6, weights: PRESETS.paper.weights, time: false },
  default: { relevance: "contextual", share: balanced.vectorShare, weights: balanced.weights, time: true },
  lexical: { relevance: "lexical", share: 0.6, weights: relOnly, time: false },
  hybrid: { relevance: "hybrid", share: 0.6, weights: relOnly, time: true },
  contextual: { relevance: "contextual", share: 0.6, weights: relOnly, time: false },
  windowed: { relevance: "windowed", share: 0.6, weights: relOnly, time: true },
  windowedNoTime: { relevance: "windowed", share: 0.6, weights: relOnly, time: false },
};
const names = (process.env.VARIANTS ?? Object.keys(ALL).join(",")).split(",");

function params(v: Variant, i: number, suffix = ""): RankParams {
  const q = asked[i] as (typeof asked)[number];
  const text = q.question + suffix;
  const now = new Date(q.now);
  const w = v.time ? timeWindow(text, now) : null;
  return {
    agentId: agent,
    filters: {},
    timeWindow: w
      ? {
          start: new Date((w.start - TIME_WINDOW_SLACK_S) * 1000),
          end: new Date((w.end + TIME_WINDOW_SLACK_S) * 1000),
        }
      : null,
    query: { vector: pgvector.toSql(vectors[i]), model: embedder.modelId, dimensions: 512 },
    lexical: v.relevance === "vector" ? undefined : { kind: v.relevance, text, vectorShare: v.share },
    now,
    decay: v === ALL.paper ? 0.99 : balanced.decay,
    recencyUnit: v === ALL.paper ? "hour" : "day",
    weights: v.weights,
    k: 10,
    touch: false,
  };
}

// Whether retrieve() would call the agent's stream large (agent-state.ts: the planner's estimate).
const [{ large } = { large: false }] = await db<{ large: boolean }[]>`
  SELECT coalesce(memstream_agent_rows_estimate(${agent}) >= ${WORKERS_MIN_STREAM}, false) AS large`;

/** The statement retrieve() runs for `p` (the planner's exact choice for this stream). */
const exactRankQuery = (p: RankParams): SQL => exactStatementFor(p, { small: false, large }).sql;

type Row = Record<string, unknown>;
async function run(p: RankParams, prefix = "", build = exactRankQuery): Promise<Row[]> {
  const q = dialect.sqlToQuery(build(p));
  return db.begin(async (tx) => {
    // retrieve()'s settings (execute.ts useExactScan with the plan's workers).
    const workers = exactStatementFor(p, { small: false, large }).plan.workers
      ? "set_config('max_parallel_workers_per_gather', '2', true), set_config('parallel_setup_cost', '0', true), set_config('parallel_tuple_cost', '0', true)"
      : "set_config('max_parallel_workers_per_gather', '0', true)";
    await tx.unsafe(`SELECT set_config('jit', 'off', true), ${workers},
      set_config('work_mem', '32MB', true), set_config('enable_mergejoin', 'off', true)`);
    return (await tx.unsafe(prefix + q.sql, q.params as never[])) as unknown as Row[];
  }) as Promise<Row[]>;
}

const explain = process.env.EXPLAIN;
if (process.env.BASE) {
  // Against another checkout's statement builder, paired per question and interleaved (ABBA):
  // `exactRankQuery` of exact-query.ts before the planner (docs/adr/0023), else the planner's.
  const baseRankQuery = await baseBuilder(process.env.BASE);
  const cases: [string, string, string][] = [];
  for (const name of names)
    for (const suffix of ["", " in May 2023"]) cases.push([name, suffix, `${name}${suffix ? "+time" : ""}`]);
  const ms = new Map<string, number[]>();
  const ratios = new Map<string, number[]>();
  const push = (m: Map<string, number[]>, k: string, v: number) => m.set(k, [...(m.get(k) ?? []), v]);
  const ROUNDS = Number(process.env.ROUNDS ?? 4);
  for (let round = 0; round < ROUNDS; round++)
    for (const [i] of asked.entries())
      for (const [name, suffix, label] of cases) {
        const t: Record<string, number> = {};
        const order = (round + i) % 2 === 0 ? ["base", "new"] : ["new", "base"];
        for (const tag of order) {
          const build = tag === "base" ? baseRankQuery : exactRankQuery;
          const t0 = performance.now();
          await run(params(ALL[name] as Variant, i, suffix), "", build);
          t[tag] = performance.now() - t0;
        }
        if (round === 0) continue;
        push(ms, `${label} base`, t.base as number);
        push(ms, `${label} new`, t.new as number);
        push(ratios, label, (t.new as number) / (t.base as number));
      }
  for (const [, , label] of cases) {
    const b = quantile(ms.get(`${label} base`) ?? [], 0.5);
    const n = quantile(ms.get(`${label} new`) ?? [], 0.5);
    const r = ratios.get(label) ?? [];
    console.log(
      `${label.padEnd(22)} base p50 ${b.toFixed(1).padStart(6)}  new p50 ${n.toFixed(1).padStart(6)}  median pair ratio ${quantile(r, 0.5).toFixed(2)} (q25 ${quantile(r, 0.25).toFixed(2)}, q75 ${quantile(r, 0.75).toFixed(2)})`,
    );
  }
} else if (explain) {
  const v = ALL[explain] as Variant;
  // Warm the connection first (catalog caches, the text search dictionary), as the service's are.
  for (let i = 0; i < 3; i++) await run(params(v, Number(process.env.Q ?? 0), process.env.SUFFIX ?? ""));
  const rows = await run(
    params(v, Number(process.env.Q ?? 0), process.env.SUFFIX ?? ""),
    "EXPLAIN (ANALYZE, BUFFERS) ",
  );
  console.log(rows.map((r) => r["QUERY PLAN"]).join("\n"));
} else if (process.env.DUMP || process.env.CHECK) {
  const out: Record<string, unknown> = {};
  for (const name of names)
    for (const [i] of asked.entries())
      for (const suffix of ["", " in May 2023"]) {
        const rows = await run(params(ALL[name] as Variant, i, suffix));
        out[`${name}|${i}|${suffix}`] = rows.map((r) => [
          r.id,
          String(r.score),
          String(r.sRecency),
          String(r.sImportance),
          String(r.sRelevance),
          String(r.candidates),
        ]);
      }
  if (process.env.DUMP) writeFileSync(process.env.DUMP, JSON.stringify(out));
  if (process.env.CHECK) {
    const before = JSON.parse(readFileSync(process.env.CHECK, "utf8")) as Record<string, unknown>;
    let diff = 0;
    for (const [key, rows] of Object.entries(out))
      if (JSON.stringify(rows) !== JSON.stringify(before[key])) {
        diff++;
        if (diff <= 5) console.log("differs:", key, JSON.stringify(rows), JSON.stringify(before[key]));
      }
    console.log(`${Object.keys(out).length} rankings compared, ${diff} differ`);
    if (diff > 0) process.exitCode = 1;
  }
} else {
  const ms = new Map<string, number[]>(names.map((n) => [n, []]));
  for (let round = 0; round < 2; round++)
    for (const [i] of asked.entries())
      for (const name of names) {
        const t0 = performance.now();
        await run(params(ALL[name] as Variant, i));
        if (round > 0) ms.get(name)?.push(performance.now() - t0);
      }
  const paper = quantile(ms.get("paper") ?? [], 0.5);
  for (const [name, xs] of ms)
    console.log(
      `${name.padEnd(16)} p50 ${quantile(xs, 0.5).toFixed(1).padStart(6)} ms  p90 ${quantile(xs, 0.9).toFixed(1).padStart(6)} ms  p50/paper ${(quantile(xs, 0.5) / paper).toFixed(2)}`,
    );
}
await db.end();

/** The exact statement builder of another checkout, before or after the planner (plan.ts) came. */
async function baseBuilder(checkout: string): Promise<(p: RankParams) => SQL> {
  const at = (file: string) => pathToFileURL(resolve(checkout, "src/memory/retrieve", file)).href;
  if (existsSync(resolve(checkout, "src/memory/retrieve/exact-query.ts"))) {
    const old = (await import(at("exact-query.ts"))) as { exactRankQuery: (p: RankParams) => SQL };
    return old.exactRankQuery;
  }
  const mod = (await import(at("execute.ts"))) as { exactStatementFor: typeof exactStatementFor };
  return (p) => mod.exactStatementFor(p, { small: false, large }).sql;
}
