/**
 * Retrieval quality with memory tiers on LoCoMo (dev split): `npm run eval:tiers`. Each conversation
 * is loaded twice (as `eval:locomo` loads it); in the second copy every session older than the last
 * three is compacted into summaries (POST …/maintenance, the offline extractive summaries). Every
 * question is asked of both with the default ranking (k 10, touch off): the plain stream as is,
 * the compacted one with `expand`, a summary counting as finding its members' evidence only through
 * the members expanded into the top 10 (each summary is replaced by its expanded members, then the
 * list is cut at 10). Prints recall@10 on both halves beside the plain stream's, BM25's and
 * vector's, and the ranked rows before and after. Target: at most 0.01 lower on either half.
 * Data: LOCOMO_DIR (bench/lib/locomo.ts). Database: embedded PGlite in memory, or EVAL_DATABASE_URL
 * (a dedicated database, never a memstream_test* one), where the loaded turns are kept.
 */
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { silentLogger } from "../src/lib/logger";
import { HYBRID_VECTOR_SHARE } from "../src/memory/retrieve/ranking/relevance/kinds";
import { appCall, loadTurns, locomoDir, type Query, readLocomo, score } from "./lib/locomo";
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
const call = appCall(system);
const KEEP_SESSIONS = 3;
const PER_SUMMARY = Number(process.env.EVAL_EXPAND ?? 3);
/** Members fetched per summary (the round robin takes from all of them). */
const FETCH = Number(process.env.EVAL_FETCH ?? 8);
const GROUP_MAX = Number(process.env.EVAL_GROUP_MAX ?? 8);

const plainOf = (conv: string) => `locomo-${fingerprint}-${embedder.modelId}:${conv}`;
const tieredOf = (conv: string) => `tiers-g${GROUP_MAX}-${fingerprint}-${embedder.modelId}:${conv}`;
const enc = encodeURIComponent;
console.log(
  `LoCoMo from ${dir}: ${turns.length} turns, ${queries.length} questions; embedder ${embedder.modelId}`,
);
let t0 = Date.now();
await loadTurns(call, embedder, turns, plainOf);
await loadTurns(call, embedder, turns, tieredOf);
console.log(`loaded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

// Compaction: per conversation, everything before the first turn of its third-to-last session.
const session = (diaId: string) => Number(/^D(\d+):/.exec(diaId)?.[1] ?? 0);
const rows: Record<string, string | number>[] = [];
let compactMs = 0;
for (const conv of [...new Set(turns.map((t) => t.conversation_id))]) {
  const mine = turns.filter((t) => t.conversation_id === conv);
  const sessions = [...new Set(mine.map((t) => session(t.dia_id)))].sort((a, b) => a - b);
  const firstKept = sessions[Math.max(0, sessions.length - KEEP_SESSIONS)] as number;
  const before = mine
    .filter((t) => session(t.dia_id) === firstKept)
    .map((t) => t.timestamp)
    .sort()[0] as string;
  const stats = (a: string) =>
    call("GET", `/v1/agents/${enc(a)}/stats`) as Promise<{ total: number; tiers: Record<string, number> }>;
  if ((await stats(tieredOf(conv))).tiers.archive === 0) {
    const t = Date.now();
    await call("POST", `/v1/agents/${enc(tieredOf(conv))}/maintenance`, { before, groupMax: GROUP_MAX });
    compactMs += Date.now() - t;
  }
  const plain = await stats(plainOf(conv));
  const tiered = await stats(tieredOf(conv));
  rows.push({
    conversation: conv,
    sessions: sessions.length,
    "ranked rows, plain": plain.total,
    "ranked rows, compacted": tiered.total,
    summaries: tiered.tiers.summary ?? 0,
    archived: tiered.tiers.archive ?? 0,
    reduction: 1 - tiered.total / plain.total,
  });
}
console.log(`compaction took ${compactMs} ms (0 = kept from an earlier run)`);

t0 = Date.now();
const asked = queries.filter((q) => q.evidence.length > 0);
const vectors = await embedder.embed(asked.map((q) => q.question));
type M = {
  kind: string;
  score: number;
  metadata: { dia_id?: string };
  expanded?: { metadata: { dia_id?: string }; relevance: number }[];
};
const RELEVANCE_ONLY = {
  weights: { recency: 0, importance: 0, relevance: 1 },
  vectorShare: HYBRID_VECTOR_SHARE,
  timeFilter: false,
  subjects: false,
};
// EVAL_TIERS_CONFIGS=0,1 runs only those rows (by index).
const only = process.env.EVAL_TIERS_CONFIGS?.split(",");
const allConfigs: { name: string; agent: (conv: string) => string; body: Record<string, unknown> }[] = [
  { name: "default, plain stream", agent: plainOf, body: {} },
  { name: "default, compacted, flatten", agent: tieredOf, body: { flatten: true } },
  { name: "default, compacted, expand", agent: tieredOf, body: { expand: FETCH } },
  { name: "BM25, plain stream", agent: plainOf, body: { ...RELEVANCE_ONLY, relevance: "lexical" } },
  { name: "vector, plain stream", agent: plainOf, body: { ...RELEVANCE_ONLY, relevance: "vector" } },
  {
    name: "vector, compacted",
    agent: tieredOf,
    body: { ...RELEVANCE_ONLY, relevance: "vector", expand: FETCH },
  },
];
/** How a ranked answer with expanded summaries becomes one list (a summary never counts itself). */
const FLATTEN: Record<string, (ms: M[]) => string[]> = {
  // Each summary replaced by its best PER_SUMMARY members, in rank order.
  [`each summary's best ${PER_SUMMARY}`]: (ms) =>
    ms.flatMap((m) =>
      m.kind === "summary"
        ? (m.expanded ?? []).slice(0, PER_SUMMARY).map((e) => e.metadata.dia_id ?? "")
        : [m.metadata.dia_id ?? ""],
    ),
  // Not a list a reader gets: every member of the 10 ranked rows, uncut (what the summaries reach).
  "reach: every member of the top 10 (uncut, an upper bound)": (ms) =>
    ms.flatMap((m) =>
      m.kind === "summary"
        ? (m.expanded ?? []).map((e) => e.metadata.dia_id ?? "")
        : [m.metadata.dia_id ?? ""],
    ),
};
const configs = only ? allConfigs.filter((_, i) => only.includes(String(i))) : allConfigs;
const halves: Record<string, string | number>[] = [];
for (const c of configs) {
  const ranked: { q: Query; memories: M[] }[] = [];
  for (let i = 0; i < asked.length; i += 4) {
    const batch = asked.slice(i, i + 4);
    ranked.push(
      ...(await Promise.all(
        batch.map(async (q, j) => {
          const body = (await call("POST", `/v1/agents/${enc(c.agent(q.conversation_id))}/retrieve`, {
            query: q.question,
            ...(c.body.relevance === "lexical" ? {} : { queryEmbedding: vectors[i + j] }),
            now: q.now,
            k: 10,
            touch: false,
            ...c.body,
          })) as { memories: M[] };
          return { q, memories: body.memories };
        }),
      )),
    );
  }
  const flatteners: [string, (ms: M[]) => string[]][] = c.body.expand
    ? Object.entries(FLATTEN)
    : [["as ranked", (ms) => ms.map((m) => m.metadata.dia_id ?? "")]];
  for (const [how, flatten] of flatteners) {
    const results = ranked.map(({ q, memories }) => ({
      q,
      r10: how.startsWith("reach")
        ? q.evidence.filter((e) => flatten(memories).includes(e)).length / new Set(q.evidence).size
        : score(flatten(memories).slice(0, 10), q.evidence).r10,
    }));
    const { tune, heldOut } = split(results, (r) => r.q.conversation_id);
    const mean = (xs: { r10: number }[]) => xs.reduce((a, x) => a + x.r10, 0) / xs.length;
    halves.push({
      ranking: c.body.expand ? `${c.name}, ${how}` : c.name,
      "recall@10 tuning half": mean(tune).toFixed(3),
      "recall@10 held out": mean(heldOut).toFixed(3),
      "recall@10 all": mean(results).toFixed(3),
    });
  }
}
console.log(
  `\nRanked rows per conversation (sessions before the last ${KEEP_SESSIONS} compacted, groupMax ${GROUP_MAX})`,
);
printTable(rows.map((r) => ({ ...r, reduction: (r.reduction as number).toFixed(3) })));
console.log(
  `\nrecall@10 (held out: ${HELD_OUT.join(", ")}), ${asked.length} questions in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
);
printTable(halves);
const plain = halves[0] as Record<string, string>;
// The answer a reader gets: the default with `flatten` on the compacted streams.
const tiered = halves.find((h) => h.ranking === "default, compacted, flatten") as Record<string, string>;
for (const half of ["recall@10 tuning half", "recall@10 held out"]) {
  const drop = Number(plain[half]) - Number(tiered[half]);
  console.log(`target: ${half} drop ≤ 0.010 — figure ${drop.toFixed(3)} ${drop <= 0.01 ? "met" : "MISSED"}`);
}
console.log(`results: ${writeResults("tiers", { at: new Date().toISOString(), rows, halves })}`);
await system.close();
