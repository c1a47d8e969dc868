/**
 * Retrieval quality on LoCoMo (dev split): `npm run eval:locomo`. Loads each conversation into
 * its own agent through the HTTP API (in-process), with the turns' own timestamps and offline
 * (USE-lite) vectors and importance, then asks every question (touch off, exact mode, the query
 * file's `now`) and prints recall@5/10/25 and NDCG@10 per category for: relevance only with
 * vector, lexical and hybrid relevance; the paper's default weights with vector and hybrid.
 * Data: LOCOMO_DIR, default ../shared/eval/locomo-dev from the repo root (its licence forbids
 * copying it into this repository). Database: embedded PGlite in memory, or EVAL_DATABASE_URL
 * (a dedicated database, never a memstream_test* one), where the loaded turns are kept and
 * reused by the next run with the same data and embedder.
 */
import { resolve } from "node:path";
import { createApp } from "../src/api/app";
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { silentLogger } from "../src/lib/logger";
import type { RelevanceKind } from "../src/memory/retrieve/relevance";
import { type Call, loadTurns, type Query, readLocomo, type Scores, score } from "./lib/locomo";
import { printTable, writeResults } from "./lib/stats";

const root = new URL("..", import.meta.url).pathname;
const dir = process.env.LOCOMO_DIR ?? resolve(root, "../shared/eval/locomo-dev");
const { turns, queries, fingerprint } = readLocomo(dir);

const config = loadConfig({
  ...(process.env.EVAL_DATABASE_URL ? { DATABASE_URL: process.env.EVAL_DATABASE_URL } : {}),
  MEMSTREAM_DATA_DIR: "memory://",
  EMBEDDING_PROVIDER: "offline",
});
const system = await composeSystem(config, silentLogger);
const app = createApp(system.app);
const { embedder } = system.providers;
const call: Call = async (method, path, body) => {
  const res = await app.request(path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<unknown>;
};

// The agent id names the data and the embedder, so a kept database is reused only when both match.
const agentOf = (conv: string) => `locomo-${fingerprint}-${embedder.modelId}:${conv}`;
console.log(
  `LoCoMo from ${dir}: ${turns.length} turns, ${queries.length} questions; embedder ${embedder.modelId}`,
);
let t0 = Date.now();
const { loaded, reused } = await loadTurns(call, embedder, turns, agentOf);
console.log(`loaded ${loaded} turns, reused ${reused}, in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

// Each question is embedded once, in one batch, and sent as queryEmbedding with its text
// (the server would compute the same vector; batching does not change USE-lite's output).
t0 = Date.now();
const asked = queries.filter((q) => q.evidence.length > 0);
const vectors = await embedder.embed(asked.map((q) => q.question));

const IN_FLIGHT = 4;
const GA = { recency: 1, importance: 1, relevance: 1 };
const RELEVANCE_ONLY = { recency: 0, importance: 0, relevance: 1 };
const configs: { weights: string; relevance: RelevanceKind; w: typeof GA }[] = [
  { weights: "relevance only", relevance: "vector", w: RELEVANCE_ONLY },
  { weights: "relevance only", relevance: "lexical", w: RELEVANCE_ONLY },
  { weights: "relevance only", relevance: "hybrid", w: RELEVANCE_ONLY },
  { weights: "GA default (1,1,1)", relevance: "vector", w: GA },
  { weights: "GA default (1,1,1)", relevance: "hybrid", w: GA },
];
const rows: Record<string, string | number>[] = [];
for (const c of configs) {
  const ask = async (q: Query, i: number) => {
    const body = (await call(
      "POST",
      `/v1/agents/${encodeURIComponent(agentOf(q.conversation_id))}/retrieve`,
      {
        query: q.question,
        ...(c.relevance === "lexical" ? {} : { queryEmbedding: vectors[i] }),
        relevance: c.relevance,
        now: q.now,
        k: 25,
        weights: c.w,
        touch: false,
        mode: "exact",
      },
    )) as { memories: { metadata: { dia_id?: string } }[] };
    return {
      q,
      s: score(
        body.memories.map((m) => m.metadata.dia_id ?? ""),
        q.evidence,
      ),
    };
  };
  // A few questions in flight keep both Postgres cores busy (touch is off: order cannot matter).
  const results: { q: Query; s: Scores }[] = [];
  for (let i = 0; i < asked.length; i += IN_FLIGHT) {
    results.push(...(await Promise.all(asked.slice(i, i + IN_FLIGHT).map((q, j) => ask(q, i + j)))));
  }
  const groups = new Map<string, Scores[]>();
  for (const { q, s } of results) {
    const cat = `${q.category} ${q.category_name}`;
    groups.set(cat, [...(groups.get(cat) ?? []), s]);
  }
  const sorted = [...groups].sort(([a], [b]) => a.localeCompare(b));
  for (const [category, ss] of [...sorted, ["all", results.map((r) => r.s)] as const]) {
    const mean = (f: (s: Scores) => number) => ss.reduce((a, s) => a + f(s), 0) / ss.length;
    rows.push({
      weights: c.weights,
      relevance: c.relevance,
      category,
      n: ss.length,
      "recall@5": mean((s) => s.r5),
      "recall@10": mean((s) => s.r10),
      "recall@25": mean((s) => s.r25),
      "ndcg@10": mean((s) => s.ndcg10),
    });
  }
}
const seconds = (Date.now() - t0) / 1000;

const fixed = (r: Record<string, string | number>) =>
  Object.fromEntries(
    Object.entries(r).map(([k, v]) => [k, typeof v === "number" && !Number.isInteger(v) ? v.toFixed(3) : v]),
  );
console.log(
  `\nLoCoMo dev retrieval, ${asked.length} questions × ${configs.length} configurations in ${seconds.toFixed(0)} s`,
);
printTable(rows.map(fixed));
const references = [
  { retriever: "BM25 (plain, no stemming)", "recall@5": 0.518, "recall@10": 0.585, "recall@25": 0.669 },
  { retriever: "DRAGON, dialogue turns (paper)", "recall@5": 0.567, "recall@10": 0.662, "recall@25": 0.767 },
];
console.log("\nPublished references (all 10 conversations, not only the dev 5):");
printTable(references.map(fixed));
console.log(
  `\nresults: ${writeResults("locomo", { at: new Date().toISOString(), embedder: embedder.modelId, dataset: fingerprint, rows, references })}`,
);
await system.close();
