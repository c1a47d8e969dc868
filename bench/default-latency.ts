/**
 * Latency of the default ranking against the first-round `balanced` on the same LoCoMo agent, in
 * one run, interleaved: `EVAL_DATABASE_URL=… LOCOMO_DIR=… nice npx tsx bench/default-latency.ts`
 * (after `npm run eval:locomo` loaded the turns). Questions without and with a time expression
 * (the time filter's extra existence check). Prints p50/p90 per variant and the ratios.
 *
 * `SCALE=4`: ranks a copy of every loaded LoCoMo turn, 4 times over (≈ 11k memories, each copy
 * 400 days earlier than the last, with its vector), built in SQL on first use — the
 * "latency at 10k has not regressed" check, against the paper preset (the default before the measured one).
 * `VARIANTS=windowed`: windowed against contextual relevance alone instead (ADR 0008).
 * `BASE=<checkout>`: each variant's retrieve() against that checkout's (e.g. `git worktree add
 * ../base <commit>`, node_modules linked), paired per question and alternating (ABBA): p50 per
 * side, the median of the per-pair ratios new/base and the rankings that differ.
 */
import postgres from "postgres";
import { retrieve } from "../src/memory/retrieve/retrieve";
import { openLocomoLatency } from "./lib/locomo-latency";
import { pairedRuns, pairedSummary, retrieveOf } from "./lib/paired";
import { printTable, quantile } from "./lib/stats";

const { url, queries, system, conv, scale, source, agent } = await openLocomoLatency();
if (scale > 0) await buildScaled(agent, scale);
const asked = queries.filter((q) => q.conversation_id === conv).slice(0, Number(process.env.N ?? 40));
const vectors = await system.providers.embedder.embed(asked.map((q) => q.question));
const FIRST_ROUND = {
  weights: { recency: 1, importance: 0.5, relevance: 1.5 },
  decay: 0.993,
  recencyUnit: "day" as const,
  relevance: "contextual" as const,
  vectorShare: 0.6,
  timeFilter: false,
};
const RELEVANCE_ONLY = {
  weights: { recency: 0, importance: 0, relevance: 1 },
  vectorShare: 0.6,
  timeFilter: false,
};
const variants: [string, (q: (typeof asked)[number]) => object][] =
  process.env.VARIANTS === "windowed"
    ? // Windowed relevance (BM25F over the neighbours' words) against contextual, relevance only.
      [
        ["contextual", (q) => ({ query: q.question, ...RELEVANCE_ONLY, relevance: "contextual" })],
        ["windowed", (q) => ({ query: q.question, ...RELEVANCE_ONLY, relevance: "windowed" })],
      ]
    : [
        ["paper preset (vector only)", (q) => ({ query: q.question, preset: "paper" })],
        ["first-round balanced", (q) => ({ query: q.question, ...FIRST_ROUND })],
        ["default, no time expression", (q) => ({ query: q.question })],
        ["default, query + ' in May 2023'", (q) => ({ query: `${q.question} in May 2023` })],
      ];
if (process.env.BASE) await paired(process.env.BASE);
else {
  const ms = new Map<string, number[]>(variants.map(([n]) => [n, []]));
  for (let round = 0; round < 2; round++)
    for (const [i, q] of asked.entries())
      for (const [name, body] of variants) {
        const t0 = performance.now();
        await rank(retrieve, body(q), i);
        if (round > 0) ms.get(name)?.push(performance.now() - t0);
      }
  const base = quantile(ms.get(variants[1]?.[0] ?? "") ?? [], 0.5);
  const paper = quantile(ms.get(variants[0]?.[0] ?? "") ?? [], 0.5);
  printTable(
    [...ms].map(([name, xs]) => ({
      variant: name,
      n: xs.length,
      "p50 ms": quantile(xs, 0.5).toFixed(1),
      "p90 ms": quantile(xs, 0.9).toFixed(1),
      [`p50 / ${variants[1]?.[0]}`]: (quantile(xs, 0.5) / base).toFixed(2),
      [`p50 / ${variants[0]?.[0]}`]: (quantile(xs, 0.5) / paper).toFixed(2),
    })),
  );
}
await system.close();

/** One exact retrieve of question `i` (no touch, so every run ranks the same stream). */
function rank(fn: typeof retrieve, body: object, i: number) {
  const q = asked[i] as (typeof asked)[number];
  return fn(system.services, agent, {
    ...body,
    queryEmbedding: vectors[i],
    now: q.now,
    k: 10,
    touch: false,
    mode: "exact",
  });
}

/** Each variant against `checkout`'s retrieve(), paired per question (bench/lib/paired.ts). */
async function paired(checkout: string): Promise<void> {
  const baseRetrieve = await retrieveOf(checkout);
  const rows = [];
  for (const [name, body] of variants) {
    const p = await pairedRuns(asked.length, async (side, i) => {
      const r = await rank(
        side === "base" ? baseRetrieve : retrieve,
        body(asked[i] as (typeof asked)[number]),
        i,
      );
      return r.memories.map((m) => `${m.id}:${m.score}`).join(",");
    });
    rows.push({ variant: name, ...pairedSummary(p) });
  }
  printTable(rows);
}

/** Copies every loaded LoCoMo turn `times` times into `agent` (memories and vectors), once. */
async function buildScaled(agent: string, times: number): Promise<void> {
  const sql = postgres(url as string, { max: 1, onnotice: () => {} });
  const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM memories WHERE agent_id = ${agent}`;
  if ((row?.n ?? 0) > 0) return void (await sql.end());
  await sql.begin(async (tx) => {
    for (let c = 0; c < times; c++) {
      const shift = `${c * 400} days`;
      await tx`INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at,
          importance, importance_status, embedding_status, embedding_model, metadata)
        SELECT id || '-x' || ${c}, ${agent}, kind, description, created_at - ${shift}::interval,
          last_accessed_at - ${shift}::interval, importance, importance_status, embedding_status,
          embedding_model, metadata
        FROM memories WHERE agent_id LIKE ${`${source}conv-%`}`;
      await tx`INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
        SELECT e.memory_id || '-x' || ${c}, ${agent}, e.model, e.dimensions, e.embedding, e.revision
        FROM memory_embeddings e WHERE e.agent_id LIKE ${`${source}conv-%`}`;
    }
  });
  await sql`ANALYZE memories`;
  await sql`ANALYZE memory_embeddings`;
  await sql.end();
}
