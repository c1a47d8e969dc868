/**
 * Retrieval quality on LoCoMo (dev split): `npm run eval:locomo`. Loads each conversation into
 * its own agent through the HTTP API (in-process), with the turns' own timestamps and offline
 * (USE-lite) vectors and importance, then asks every question (touch off, exact mode, the query
 * file's `now`) and prints recall@5/10/25 and NDCG@10 per category, both halves (tuning and held
 * out, bench/lib/split.ts) side by side, and recall@10 per category on each half, for the paper
 * preset, the service default, plain BM25 and relevance alone from each source, with the
 * published references beside them.
 * Data: LOCOMO_DIR (bench/lib/locomo.ts `locomoDir`; its licence forbids
 * copying it into this repository). Database: embedded PGlite in memory, or EVAL_DATABASE_URL
 * (a dedicated database, never a memstream_test* one), where the loaded turns are kept and
 * reused by the next run with the same data and embedder.
 */
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { silentLogger } from "../src/lib/logger";
import { DEFAULT_PRESET, PRESET_NAMES } from "../src/memory/retrieve/presets";
import { HYBRID_VECTOR_SHARE } from "../src/memory/retrieve/ranking/relevance/kinds";
import {
  appCall,
  type Call,
  loadTurns,
  locomoDir,
  type Query,
  readLocomo,
  type Scores,
  score,
} from "./lib/locomo";
import { HELD_OUT, split } from "./lib/split";
import { printTable, writeResults } from "./lib/stats";

const dir = locomoDir();
const { turns, queries, fingerprint } = readLocomo(dir);

const config = loadConfig({
  ...(process.env.EVAL_DATABASE_URL ? { DATABASE_URL: process.env.EVAL_DATABASE_URL } : {}),
  MEMSTREAM_DATA_DIR: "memory://",
  EMBEDDING_PROVIDER: "offline",
});
const system = await composeSystem(config, silentLogger);
const { embedder } = system.providers;
const call: Call = appCall(system);

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
// Relevance alone, each source as defined (hybrid α 0.6), without the default preset's α, time filter and subject lift.
const RELEVANCE_ONLY = {
  weights: { recency: 0, importance: 0, relevance: 1 },
  vectorShare: HYBRID_VECTOR_SHARE,
  timeFilter: false,
  subjects: false,
};
const TIME = { ...RELEVANCE_ONLY, timeFilter: true };
// Every preset by name, the service default (no ranking field given: it sends nothing but the
// query, text and vector), plain BM25 as the baseline to beat, and relevance alone per source.
const configs: { name: string; body: Record<string, unknown> }[] = [
  { name: `default (${DEFAULT_PRESET}, no ranking field)`, body: {} },
  { name: "default, mode auto (in phases from 3,300 memories)", body: { mode: "auto" } },
  { name: "BM25 (relevance only, lexical)", body: { ...RELEVANCE_ONLY, relevance: "lexical" } },
  ...PRESET_NAMES.map((p) => ({ name: `preset ${p}`, body: { preset: p } })),
  { name: "relevance only, vector", body: { ...RELEVANCE_ONLY, relevance: "vector" } },
  { name: "relevance only, hybrid", body: { ...RELEVANCE_ONLY, relevance: "hybrid" } },
  { name: "relevance only, contextual", body: { ...RELEVANCE_ONLY, relevance: "contextual" } },
  { name: "relevance only, hybrid + time filter", body: { ...TIME, relevance: "hybrid" } },
  { name: "relevance only, contextual + time filter", body: { ...TIME, relevance: "contextual" } },
  { name: "relevance only, windowed + time filter", body: { ...TIME, relevance: "windowed" } },
  { name: "relevance only, windowed", body: { ...RELEVANCE_ONLY, relevance: "windowed" } },
];
// EVAL_RANKINGS=0,1 runs only those rows of `configs` (by index; "none" only loads the turns).
const only = process.env.EVAL_RANKINGS?.split(",");
const chosen = only ? configs.filter((_, i) => only.includes(String(i))) : configs;
const rows: Record<string, string | number>[] = [];
const perCategory: Record<string, string | number>[] = [];
for (const c of chosen) {
  const ask = async (q: Query, i: number) => {
    const body = (await call(
      "POST",
      `/v1/agents/${encodeURIComponent(agentOf(q.conversation_id))}/retrieve`,
      {
        query: q.question,
        ...(c.body.relevance === "lexical" ? {} : { queryEmbedding: vectors[i] }),
        now: q.now,
        k: 25,
        touch: false,
        mode: "exact",
        ...c.body,
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
  const { tune, heldOut } = split(results, (r) => r.q.conversation_id);
  const sorted = [...groups].sort(([a], [b]) => a.localeCompare(b));
  // Per category on each half: a change kept for one kind of question must not cost another on either half.
  const byHalf = { name: c.name } as Record<string, string | number>;
  for (const [category] of sorted) {
    const label = category.split(" ").slice(1).join(" ");
    const r10 = (xs: typeof results) => {
      const of = xs.filter((r) => `${r.q.category} ${r.q.category_name}` === category);
      return of.reduce((a, r) => a + r.s.r10, 0) / of.length;
    };
    byHalf[`${label} tuning`] = r10(tune);
    byHalf[`${label} held out`] = r10(heldOut);
  }
  perCategory.push(byHalf);
  for (const [category, ss] of [
    ...sorted,
    ["all", results.map((r) => r.s)] as const,
    ["all: tuning half", tune.map((r) => r.s)] as const,
    [`all: held out (${HELD_OUT.join(", ")})`, heldOut.map((r) => r.s)] as const,
  ]) {
    const mean = (f: (s: Scores) => number) => ss.reduce((a, s) => a + f(s), 0) / ss.length;
    rows.push({
      ranking: c.name,
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
// Both halves side by side, one row per ranking: settings are chosen on the tuning half, so the
// held-out half is the figure to trust; BM25 is the baseline every ranking should beat.
const halves = chosen.map((c) => {
  const of = (cat: string) =>
    rows.find(
      (r) => r.ranking === c.name && (r.category === cat || String(r.category).startsWith(`${cat} (`)),
    );
  const r10 = (cat: string) => Number(of(cat)?.["recall@10"] ?? Number.NaN);
  return {
    ranking: c.name,
    "recall@10 tuning half": r10("all: tuning half"),
    "recall@10 held out": r10("all: held out"),
    "recall@10 all": r10("all"),
    "ndcg@10 held out": Number(of("all: held out")?.["ndcg@10"] ?? Number.NaN),
  };
});

const fixed = (r: Record<string, string | number>) =>
  Object.fromEntries(
    Object.entries(r).map(([k, v]) => [k, typeof v === "number" && !Number.isInteger(v) ? v.toFixed(3) : v]),
  );
// Published figures (LoCoMo paper, all 10 conversations, not only the dev 5), beside ours.
const references = [
  {
    ranking: "published: BM25 (plain, no stemming)",
    "recall@5": 0.518,
    "recall@10": 0.585,
    "recall@25": 0.669,
  },
  { ranking: "published: DRAGON, dialogue turns", "recall@5": 0.567, "recall@10": 0.662, "recall@25": 0.767 },
];
console.log(
  `\nLoCoMo dev retrieval, ${asked.length} questions × ${chosen.length} rankings in ${seconds.toFixed(0)} s (exact, touch off, k 25)`,
);
printTable([
  ...rows.map(fixed),
  ...references.map((r) => fixed({ ...r, category: "all (10 conversations)", n: "—", "ndcg@10": "—" })),
]);
console.log(`\nBoth halves (held out: ${HELD_OUT.join(", ")}; the tuning half is the rest)`);
printTable(halves.map(fixed));
console.log("\nrecall@10 per category on each half");
printTable(perCategory.map(fixed));
console.log(
  `\nresults: ${writeResults("locomo", { at: new Date().toISOString(), embedder: embedder.modelId, dataset: fingerprint, rows, references })}`,
);
await system.close();
