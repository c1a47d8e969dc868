/**
 * Does learning the weights from an agent's own feedback pay? `npm run eval:learning`.
 *
 * 1. LoCoMo (dev split, read at run time from LOCOMO_DIR; never
 *    copied here): each conversation is one agent (loaded as `npm run eval:locomo` loads it). Its
 *    questions are taken in file order as the order they were asked: the first half are asked
 *    through the API with the service default, and the agent gives feedback that it used the gold
 *    evidence the retrieve ranked (returned, or in the pool below the cut: as if found later); the `agent.learn` job's function runs after
 *    each feedback (it fits when due: 30 events, then every 10). The later half is then asked with
 *    learning on (learned weights when a fit was adopted) and with the default weights, and scored
 *    (recall@10, NDCG@10 of the gold evidence). Beside it, the unguarded fit (every guardrail off)
 *    on the same feedback, to show what the guardrails keep out.
 * 2. A synthetic agent whose true preference differs from the default (importance first: weights
 *    0.5 / 3 / 1): 400 memories, its feedback is "I used the memories of my true top 5 that the
 *    retrieve ranked (returned or below the cut)"; rounds of 20 feedback events; after each round, the learned weights' shares and the
 *    overlap of the top 10 with its true top 10 on 40 fresh queries.
 * Database: EVAL_DATABASE_URL (a dedicated one; turns loaded there are reused), else PGlite in memory.
 */
import { sql } from "drizzle-orm";
import { composeSystem } from "../src/compose";
import { loadConfig } from "../src/config";
import { queryRows } from "../src/db/client";
import { silentLogger } from "../src/lib/logger";
import { type FeedbackEvent, fitWeights } from "../src/memory/learning/fit";
import { learnWeights } from "../src/memory/learning/learn";
import type { LearnedState } from "../src/memory/learning/state";
import { DEFAULT_PRESET, PRESETS } from "../src/memory/retrieve/presets";
import type { Weights } from "../src/memory/retrieve/ranking/components";
import { appCall, type Call, loadTurns, locomoDir, type Query, readLocomo, score } from "./lib/locomo";
import { HELD_OUT } from "./lib/split";
import { printTable, writeResults } from "./lib/stats";

const dir = locomoDir();
const system = await composeSystem(
  loadConfig({
    ...(process.env.EVAL_DATABASE_URL ? { DATABASE_URL: process.env.EVAL_DATABASE_URL } : {}),
    MEMSTREAM_DATA_DIR: "memory://",
    EMBEDDING_PROVIDER: "offline",
  }),
  silentLogger,
);
const call: Call = appCall(system);
const memory = system.services;
const DEFAULT = PRESETS[DEFAULT_PRESET].weights;
const shares = (w: Weights) => {
  const s = w.recency + w.importance + w.relevance;
  return `${(w.recency / s).toFixed(2)}/${(w.importance / s).toFixed(2)}/${(w.relevance / s).toFixed(2)}`;
};
const mean = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const f3 = (x: number) => (Number.isNaN(x) ? "—" : x.toFixed(3));

type Answer = {
  retrievalId: string;
  memories: { id: string; importance: number | null; metadata: { dia_id?: string } }[];
  ranking: { weights: Weights; source: { weights: string } };
};
const retrieve = (agent: string, body: object) =>
  call("POST", `/v1/agents/${encodeURIComponent(agent)}/retrieve`, {
    touch: false,
    ...body,
  }) as Promise<Answer>;
const feedback = (agent: string, body: object) =>
  call("POST", `/v1/agents/${encodeURIComponent(agent)}/feedback`, body);
const settingsOf = async (agent: string) =>
  ((await call("GET", `/v1/agents/${encodeURIComponent(agent)}/settings`)) as { learned: LearnedState })
    .learned;
/** A fresh start for an agent kept from an earlier run: learning on, no learned weights, old feedback unused. */
async function freshLearner(agent: string) {
  await call("PUT", `/v1/agents/${encodeURIComponent(agent)}/settings`, { learnWeights: true });
  await call("DELETE", `/v1/agents/${encodeURIComponent(agent)}/learned-weights`);
}

// ---- 1. LoCoMo ----
const { turns, queries, fingerprint } = readLocomo(dir);
const { embedder } = system.providers;
const agentOf = (conv: string) => `learn-${fingerprint}-${embedder.modelId}:${conv}`;
let t0 = Date.now();
const loaded = await loadTurns(call, embedder, turns, agentOf);
console.log(
  `LoCoMo from ${dir}: ${turns.length} turns (loaded ${loaded.loaded}, reused ${loaded.reused}) in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
);
t0 = Date.now();
const asked = queries.filter((q) => q.evidence.length > 0);
const vectors = new Map<string, number[]>();
const texts = asked.map((q) => q.question);
for (const [i, v] of (await embedder.embed(texts)).entries()) vectors.set(asked[i]?.query_id ?? "", v);
const byConv = new Map<string, Query[]>();
for (const q of asked) byConv.set(q.conversation_id, [...(byConv.get(q.conversation_id) ?? []), q]);

/** The ids of the gold evidence among the memories a logged retrieve ranked (returned or below the cut). */
async function rankedGold(agent: string, retrievalId: string, gold: Set<string>): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    system.database.db,
    sql`SELECT m.id FROM retrieval_log l CROSS JOIN LATERAL jsonb_array_elements(l.candidates) c
      JOIN memories m ON m.agent_id = l.agent_id AND m.id = c->>0
      WHERE l.agent_id = ${agent} AND l.id = ${retrievalId} AND m.metadata->>'dia_id' IN (SELECT jsonb_array_elements_text(${JSON.stringify([...gold])}::jsonb))`,
  );
  return rows.map((r) => r.id);
}

/** Of `ids`, those a logged retrieve ranked (returned or below the cut). */
async function rankedAmong(agent: string, retrievalId: string, ids: Set<string>): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    system.database.db,
    sql`SELECT c->>0 AS id FROM retrieval_log l CROSS JOIN LATERAL jsonb_array_elements(l.candidates) c
      WHERE l.agent_id = ${agent} AND l.id = ${retrievalId}`,
  );
  return rows.map((r) => r.id).filter((id) => ids.has(id));
}

const rows: Record<string, string | number>[] = [];
const all = { base: [] as number[][], learned: [] as number[][], unguarded: [] as number[][] };
const gains: { conv: string; half: string; gain: number }[] = [];
for (const [conv, qs] of byConv) {
  const agent = agentOf(conv);
  await freshLearner(agent);
  const cut = Math.floor(qs.length / 2);
  const ask = (q: Query, extra: object = {}) =>
    retrieve(agent, {
      query: q.question,
      queryEmbedding: vectors.get(q.query_id),
      now: q.now,
      k: 10,
      ...extra,
    });
  const events: FeedbackEvent[] = [];
  let withGold = 0;
  for (const q of qs.slice(0, cut)) {
    const a = await ask(q);
    const gold = new Set(q.evidence);
    // The agent used the gold evidence the retrieve ranked: returned, or in the pool below the cut
    // (as if a later retrieve found it), which is what lets a fit learn to lift what it missed.
    const used = await rankedGold(agent, a.retrievalId, gold);
    if (a.memories.some((m) => gold.has(m.metadata.dia_id ?? ""))) withGold++;
    await feedback(agent, { retrievalId: a.retrievalId, used });
    await learnWeights(memory, agent);
  }
  const learned = await settingsOf(agent);
  // The unguarded fit: the training optimum on all of this feedback, no held-out check, no step bound, no floor.
  events.push(
    ...(await queryRows<FeedbackEvent>(
      system.database.db,
      sql`SELECT candidates, used, unused FROM retrieval_log WHERE agent_id = ${agent} AND feedback_at IS NOT NULL ORDER BY created_at`,
    )),
  );
  const free = fitWeights(events, DEFAULT, {
    minEvents: 1,
    heldOutShare: 0,
    margin: -1,
    maxStep: 1,
    floor: 0,
  });
  const scores = { base: [] as number[][], learned: [] as number[][], unguarded: [] as number[][] };
  for (const q of qs.slice(cut)) {
    const rank = async (extra: object) => {
      const a = await ask(q, extra);
      const s = score(
        a.memories.map((m) => m.metadata.dia_id ?? ""),
        q.evidence,
      );
      return [s.r10, s.ndcg10];
    };
    scores.base.push(await rank({ weights: DEFAULT }));
    scores.learned.push(await rank({}));
    scores.unguarded.push(await rank({ weights: free.proposed }));
  }
  for (const k of ["base", "learned", "unguarded"] as const) all[k].push(...scores[k]);
  const col = (k: keyof typeof scores, i: number) => f3(mean(scores[k].map((s) => s[i] as number)));
  const half = (HELD_OUT as readonly string[]).includes(conv) ? "held out" : "tuning";
  const gain = mean(scores.learned.map((s) => s[0] as number)) - mean(scores.base.map((s) => s[0] as number));
  gains.push({ conv, half, gain });
  rows.push({
    conversation: `${conv} (${half})`,
    "r@10 gain": f3(gain),
    "feedback (with gold)": `${cut} (${withGold})`,
    adopted: learned.weights ? `${shares(learned.weights)} (+${f3(learned.heldOutGain ?? 0)})` : "no",
    "last fit": learned.lastFit
      ? `${learned.lastFit.adopted ? "adopted" : "refused"}, held-out ${f3(learned.lastFit.heldOut.gain)}, recall ${f3(learned.lastFit.heldOutRecall?.gain ?? Number.NaN)}`
      : "none",
    "later q": qs.length - cut,
    "r@10 default": col("base", 0),
    "r@10 learned": col("learned", 0),
    "ndcg default": col("base", 1),
    "ndcg learned": col("learned", 1),
    unguarded: `${shares(free.proposed)}: r@10 ${col("unguarded", 0)}, ndcg ${col("unguarded", 1)}`,
  });
}
const tot = (k: keyof typeof all, i: number) => f3(mean(all[k].map((s) => s[i] as number)));
rows.push({
  conversation: "all",
  "r@10 gain": f3(mean(all.learned.map((s) => s[0] as number)) - mean(all.base.map((s) => s[0] as number))),
  "feedback (with gold)": "",
  adopted: "",
  "last fit": "",
  "later q": all.base.length,
  "r@10 default": tot("base", 0),
  "r@10 learned": tot("learned", 0),
  "ndcg default": tot("base", 1),
  "ndcg learned": tot("learned", 1),
  unguarded: `r@10 ${tot("unguarded", 0)}, ndcg ${tot("unguarded", 1)}`,
});
console.log(
  `\nLoCoMo: feedback on the first half of each conversation's questions, scored on the later half (default ${DEFAULT_PRESET}: shares ${shares(DEFAULT)}; ${((Date.now() - t0) / 1000).toFixed(0)} s)`,
);
printTable(rows);
// The bar for learning on by default: on each half, the mean gain ≥ 0.02 and no conversation below −0.01.
const bar = ["tuning", "held out"].map((half) => {
  const of = gains.filter((g) => g.half === half).map((g) => g.gain);
  const meanGain = mean(of);
  const worst = Math.min(...of);
  return {
    half,
    conversations: of.length,
    "mean r@10 gain (target ≥ 0.020)": f3(meanGain),
    "worst conversation (target ≥ −0.010)": f3(worst),
    met: meanGain >= 0.02 && worst >= -0.01 ? "yes" : "no",
  };
});
printTable(bar);

// ---- 2. A synthetic agent that cares about importance ----
const TRUE: Weights = { recency: 0.5, importance: 3, relevance: 1 };
const DIMS = 16;
let seed = 7;
const rand = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const vec = () => Array.from({ length: DIMS }, () => rand() * 2 - 1);
const NOW = "2026-06-01T00:00:00.000Z";
const synth = `learn-synthetic-${Date.now()}`;
await call("POST", `/v1/agents/${synth}/memories`, {
  memories: Array.from({ length: 400 }, (_, i) => ({
    description: `synthetic memory ${i}`,
    createdAt: new Date(Date.parse(NOW) - rand() * 60 * 86_400_000).toISOString(),
    importance: 1 + Math.floor(rand() * 10),
    embedding: vec(),
    embeddingModel: "synthetic-16",
  })),
});
await freshLearner(synth);
const askS = (q: number[], extra: object = {}) =>
  retrieve(synth, { queryEmbedding: q, embeddingModel: "synthetic-16", now: NOW, k: 10, ...extra });
const tests = Array.from({ length: 40 }, vec);
async function overlap(): Promise<number> {
  const o: number[] = [];
  for (const q of tests) {
    const truth = new Set((await askS(q, { weights: TRUE })).memories.map((m) => m.id));
    o.push((await askS(q)).memories.filter((m) => truth.has(m.id)).length / 10);
  }
  return mean(o);
}
const synthRows: Record<string, string | number>[] = [
  {
    events: 0,
    "weights in force (shares r/i/v)": shares(DEFAULT),
    "top-10 overlap with the truth": f3(await overlap()),
    "last fit": "",
  },
];
for (let round = 1; round <= 6; round++) {
  for (let i = 0; i < 20; i++) {
    const q = vec();
    const top = new Set((await askS(q, { weights: TRUE, k: 5 })).memories.map((m) => m.id));
    const a = await askS(q);
    // It used the memories of its true top 5 the retrieve ranked (returned, or found below the cut).
    await feedback(synth, { retrievalId: a.retrievalId, used: await rankedAmong(synth, a.retrievalId, top) });
    await learnWeights(memory, synth);
  }
  const l = await settingsOf(synth);
  synthRows.push({
    events: round * 20,
    "weights in force (shares r/i/v)": shares(l.weights ?? DEFAULT),
    "top-10 overlap with the truth": f3(await overlap()),
    "last fit": l.lastFit
      ? `${l.lastFit.adopted ? "adopted" : "refused"}, held-out ${f3(l.lastFit.heldOut.gain)}`
      : "none",
  });
}
console.log(`\nSynthetic agent, true weights ${shares(TRUE)} (r/i/v shares), 400 memories, 40 test queries`);
printTable(synthRows);
console.log(`results: ${writeResults("eval-learning", { locomo: rows, bar, synthetic: synthRows })}`);
await system.close();
