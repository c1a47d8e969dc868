/**
 * Retrieval quality on LoCoMo (dev split): `npm run eval:locomo`. Loads each conversation into
 * its own agent through the HTTP API (in-process), with the turns' own timestamps and offline
 * (USE-lite) vectors and importance, then asks every question with the query file's `now` and
 * prints recall@5/10/25 and NDCG@10 per category, for relevance only and for the paper's
 * default weights. Data: LOCOMO_DIR, default ../shared/eval/locomo-dev from the repo root (its
 * licence forbids copying it into this repository). Database: embedded PGlite in memory, or
 * EVAL_DATABASE_URL (a dedicated database; never a memstream_test* one).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createApp } from "../src/api/app";
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { silentLogger } from "../src/lib/logger";
import { printTable, writeResults } from "./lib/stats";

type Turn = {
  conversation_id: string;
  dia_id: string;
  speaker: string;
  text: string;
  image_caption?: string;
  timestamp: string;
};
type Query = {
  query_id: string;
  conversation_id: string;
  question: string;
  category: number;
  category_name: string;
  evidence: string[];
  now: string;
};

const root = new URL("..", import.meta.url).pathname;
const dir = process.env.LOCOMO_DIR ?? resolve(root, "../shared/eval/locomo-dev");
const readJsonl = <T>(file: string): T[] =>
  readFileSync(resolve(dir, file), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as T);
const turns = readJsonl<Turn>("observations.jsonl");
const queries = readJsonl<Query>("queries.jsonl");

const config = loadConfig({
  ...(process.env.EVAL_DATABASE_URL ? { DATABASE_URL: process.env.EVAL_DATABASE_URL } : {}),
  MEMSTREAM_DATA_DIR: "memory://",
  EMBEDDING_PROVIDER: "offline",
});
const system = await composeSystem(config, silentLogger);
const app = createApp(system.app);
const { embedder, importance } = system.providers;
const call = async (path: string, body: unknown) => {
  const res = await app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<unknown>;
};

const run = `locomo-${Date.now().toString(36)}`;
const agentOf = (conv: string) => `${run}:${conv}`;
const text = (t: Turn) =>
  `${t.speaker} said, "${t.text}"${t.image_caption ? ` and shared ${t.image_caption}` : ""}`;
console.log(
  `LoCoMo from ${dir}: ${turns.length} turns, ${queries.length} questions; embedder ${embedder.modelId}`,
);
const t0 = Date.now();
for (let i = 0; i < turns.length; i += 100) {
  const batch = turns.slice(i, i + 100);
  const texts = batch.map(text);
  const [vectors, scores] = await Promise.all([embedder.embed(texts), importance.score(texts)]);
  const byConv = new Map<string, object[]>();
  batch.forEach((t, j) => {
    const list = byConv.get(t.conversation_id) ?? [];
    list.push({
      description: texts[j],
      createdAt: t.timestamp,
      embedding: vectors[j],
      importance: scores[j],
      metadata: { dia_id: t.dia_id },
    });
    byConv.set(t.conversation_id, list);
  });
  for (const [conv, memories] of byConv)
    await call(`/v1/agents/${encodeURIComponent(agentOf(conv))}/memories`, { memories });
}
console.log(`loaded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

type Scores = { r5: number; r10: number; r25: number; ndcg10: number };
const configs = {
  "relevance only": { recency: 0, importance: 0, relevance: 1 },
  "GA default (1,1,1)": { recency: 1, importance: 1, relevance: 1 },
};
const perQuery: Record<string, { q: Query; s: Scores }[]> = {};
for (const [name, weights] of Object.entries(configs)) {
  perQuery[name] = [];
  for (const q of queries) {
    if (q.evidence.length === 0) continue;
    const body = (await call(`/v1/agents/${encodeURIComponent(agentOf(q.conversation_id))}/retrieve`, {
      query: q.question,
      now: q.now,
      k: 25,
      weights,
      touch: false,
      mode: "exact",
    })) as { memories: { metadata: { dia_id?: string } }[] };
    perQuery[name]?.push({
      q,
      s: score(
        body.memories.map((m) => m.metadata.dia_id ?? ""),
        q.evidence,
      ),
    });
  }
}

function score(ranked: string[], evidence: string[]): Scores {
  const gold = new Set(evidence);
  const recall = (k: number) => ranked.slice(0, k).filter((id) => gold.has(id)).length / gold.size;
  const dcg = ranked.slice(0, 10).reduce((s, id, i) => s + (gold.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
  const ideal = Array.from({ length: Math.min(10, gold.size) }, (_, i) => 1 / Math.log2(i + 2)).reduce(
    (a, b) => a + b,
    0,
  );
  return { r5: recall(5), r10: recall(10), r25: recall(25), ndcg10: dcg / ideal };
}

const rows: Record<string, string | number>[] = [];
for (const [name, list] of Object.entries(perQuery)) {
  const groups = new Map<string, Scores[]>([["all", list.map((x) => x.s)]]);
  for (const { q, s } of list)
    groups.set(`${q.category} ${q.category_name}`, [
      ...(groups.get(`${q.category} ${q.category_name}`) ?? []),
      s,
    ]);
  for (const [cat, ss] of [...groups].sort(([a], [b]) =>
    a === "all" ? 1 : b === "all" ? -1 : a.localeCompare(b),
  )) {
    const mean = (f: (s: Scores) => number) => ss.reduce((a, s) => a + f(s), 0) / ss.length;
    rows.push({
      weights: name,
      category: cat,
      n: ss.length,
      "recall@5": mean((s) => s.r5),
      "recall@10": mean((s) => s.r10),
      "recall@25": mean((s) => s.r25),
      "ndcg@10": mean((s) => s.ndcg10),
    });
  }
}
console.log("\nLoCoMo dev retrieval (reference, all 10 conversations: BM25 recall@10 0.585, DRAGON 0.662)");
printTable(
  rows.map((r) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [
        k,
        typeof v === "number" && !Number.isInteger(v) ? Number(v.toFixed(3)) : v,
      ]),
    ),
  ),
);
console.log(
  `\nresults: ${writeResults("locomo", { at: new Date().toISOString(), embedder: embedder.modelId, rows })}`,
);
await system.close();
