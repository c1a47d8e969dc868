/**
 * The default ranking's two requirements side by side (ADR 0014): LoCoMo dev recall@10
 * (tuning and held-out halves, bench/lib/split.ts) and the knowledge-update rate of the 60
 * generated cases of test/support/knowledge-updates.ts, for a grid of weights, decays, units and
 * relevance variants, computed in memory (bench/lib/sim.ts) after a check against the service SQL.
 * Needs EVAL_DATABASE_URL loaded by `npm run eval:locomo`; stores the knowledge-update cases
 * there too (agents `ku-…`), through the API, as the test does.
 *   EVAL_DATABASE_URL=… LOCOMO_DIR=… nice npx tsx bench/explore/tune-frontier.ts
 * This bench reads whole streams into Node by design (a few hundred memories each); the service never does.
 */
import { and, sql } from "drizzle-orm";
import pgvector from "pgvector";
import { createApp } from "../../src/api/app";
import { queryRows } from "../../src/db/client";
import { filterConditions } from "../../src/memory/filters";
import {
  BM25,
  CONTEXT_FIELD_WEIGHT,
  CONTEXT_SHARE,
  HYBRID_VECTOR_SHARE,
} from "../../src/memory/retrieve/ranking/relevance/kinds";
import { relevanceSql } from "../../src/memory/retrieve/ranking/relevance/relevance";
import { timeWindow, type Window } from "../../src/memory/retrieve/time-window";
import { firstKnowledgeUpdateCases, KU_NOW } from "../../test/support/knowledge-updates";
import { openLocomoEval } from "../lib/eval-system";
import { score } from "../lib/locomo";
import {
  bm25,
  bm25f,
  cosine,
  type Doc,
  formCosine,
  fuse,
  minMax,
  parseTsv,
  type Question,
  questionsOf,
  rank,
  readStreams,
  type Stream,
  type Weights3,
  withNeighbours,
} from "../lib/sim";
import { HELD_OUT, split } from "../lib/split";
import { printTable } from "../lib/stats";

const { queries, fingerprint, system, db, model } = await openLocomoEval();
const { embedder } = system.providers;
const app = createApp(system.app);

// --- knowledge-update cases, stored once per database as the test stores them ---
const kuCases = firstKnowledgeUpdateCases(60);
const kuAgent = (i: number) => `ku-${model}:${i}`;
{
  const [{ n } = { n: 0 }] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM memories WHERE agent_id LIKE ${`ku-${model}:%`}`,
  );
  if (n !== kuCases.length * 12) {
    await db.execute(sql`DELETE FROM memories WHERE agent_id LIKE ${`ku-${model}:%`}`);
    const texts = [
      ...new Set(kuCases.flatMap((c) => [c.old.text, c.new.text, ...c.fillers.map((f) => f.text)])),
    ];
    const vs = await embedder.embed(texts);
    const vec = new Map(texts.map((x, i) => [x, vs[i] as number[]]));
    for (const [i, c] of kuCases.entries()) {
      const items = [
        { ...c.old, importance: 5, label: "old" },
        { ...c.new, importance: 5, label: "new" },
        ...c.fillers.map((f, j) => ({ ...f, label: `filler ${j}` })),
      ];
      const res = await app.request(`/v1/agents/${encodeURIComponent(kuAgent(i))}/memories`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          memories: items.map((m) => ({
            description: m.text,
            createdAt: m.at,
            importance: m.importance,
            embedding: vec.get(m.text),
            metadata: { label: m.label },
          })),
        }),
      });
      if (res.status !== 201) throw new Error(`ku store: ${res.status} ${await res.text()}`);
    }
  }
}

// --- streams and questions ---
const locomoAgent = (conv: string) => `locomo-${fingerprint}-${model}:${conv}`;
const asked = queries.filter((q) => q.evidence.length > 0);
const streams = await readStreams(
  db,
  [...asked.map((q) => locomoAgent(q.conversation_id)), ...[...kuCases.keys()].map(kuAgent)],
  model,
);
const toQuestions = (
  xs: { stream: string; text: string; category: string; conv: string; evidence: string[]; now: string }[],
): Promise<Question[]> => questionsOf(embedder, db, xs);
const locomo = await toQuestions(
  asked.map((q) => ({
    stream: locomoAgent(q.conversation_id),
    text: q.question,
    category: `${q.category} ${q.category_name}`,
    conv: q.conversation_id,
    evidence: q.evidence,
    now: q.now,
  })),
);
const ku = await toQuestions(
  kuCases.map((c, i) => ({
    stream: kuAgent(i),
    text: c.question,
    category: "ku",
    conv: "ku",
    evidence: ["new"],
    now: KU_NOW,
  })),
);

// --- relevance variants: raw relevance per doc (the final min-max happens in rank) ---
type Rel = (docs: Doc[], q: Question) => (number | null)[];
const terms1 = (q: Question) => new Map(q.terms.map((t) => [t, 1]));
const hybridOf = (a: number) => (docs: Doc[], q: Question) =>
  fuse(cosine(docs, q.vec), bm25(docs, terms1(q)), a);
const contextualOf =
  (a: number, share: number, n = 1) =>
  (docs: Doc[], q: Question) =>
    withNeighbours(hybridOf(a)(docs, q), share, n, docs);
/**
 * The service's windowed relevance: the cosine without the question form (sim.ts's formCosine)
 * fused with BM25F (own + neighbours' text), plus the neighbour share.
 */
const contextualFOf =
  (a: number, share: number, w = CONTEXT_FIELD_WEIGHT) =>
  (docs: Doc[], q: Question) =>
    withNeighbours(
      fuse(formCosine(docs, (streams.get(q.stream) as Stream).docs, q.vec), bm25f(docs, terms1(q), w), a),
      share,
      1,
      docs,
    );

/** Pseudo-relevance feedback: the top `m` docs of hybrid give `t` expansion lexemes (weight β) and a Rocchio vector (γ). */
const prfOf =
  (m: number, t: number, beta: number, gamma: number, share: number) =>
  (docs: Doc[], q: Question): number[] => {
    const first = hybridOf(HYBRID_VECTOR_SHARE)(docs, q);
    const top = first
      .map((s, i) => [s, i] as const)
      .sort((x, y) => y[0] - x[0])
      .slice(0, m)
      .map(([, i]) => docs[i] as Doc);
    const terms = terms1(q);
    if (t > 0 && beta > 0) {
      const n = docs.length;
      const df = new Map<string, number>();
      for (const d of docs) for (const l of d.tf.keys()) df.set(l, (df.get(l) ?? 0) + 1);
      const weight = new Map<string, number>();
      for (const d of top)
        for (const l of d.tf.keys())
          if (!terms.has(l)) {
            const f = df.get(l) as number;
            weight.set(l, (weight.get(l) ?? 0) + Math.log(1 + (n - f + 0.5) / (f + 0.5)));
          }
      for (const [l] of [...weight].sort((x, y) => y[1] - x[1]).slice(0, t)) terms.set(l, beta);
    }
    let qv = q.vec;
    if (gamma > 0) {
      qv = Float64Array.from(q.vec);
      for (const d of top)
        if (d.vec)
          for (let i = 0; i < qv.length; i++) qv[i] = (qv[i] as number) + (gamma / m) * (d.vec[i] as number);
    }
    const fused = fuse(cosine(docs, qv), bm25(docs, terms), HYBRID_VECTOR_SHARE);
    return share > 0 ? withNeighbours(fused, share) : fused;
  };

// --- evaluation with memoized relevance per (variant, question) ---
const relCache = new Map<string, (number | null)[][]>();
type Filter = { name: string; window: (q: Question) => Window | null; before: number; after: number } | null;
function docsFor(q: Question, filter: Filter): Doc[] {
  const all = (streams.get(q.stream) as Stream).docs;
  if (!filter) return all;
  const w = filter.window(q);
  if (!w) return all;
  const inside = all.filter((d) => d.at >= w.start - filter.before && d.at < w.end + filter.after);
  return inside.length > 0 ? inside : all;
}
function relevance(name: string, rel: Rel, qs: Question[], filter: Filter) {
  const key = `${name} ${filter?.name ?? ""} ${qs === ku ? "ku" : "locomo"}`;
  let v = relCache.get(key);
  if (!v) {
    v = qs.map((q) => rel(docsFor(q, filter), q));
    relCache.set(key, v);
  }
  return v;
}

type Config = { name: string; rel: [string, Rel]; w: Weights3; decay: number; unit: number; filter?: Filter };
function run(c: Config) {
  const filter = c.filter ?? null;
  const lr = relevance(c.rel[0], c.rel[1], locomo, filter);
  const scored = locomo.map((q, i) => ({
    q,
    s: score(rank(docsFor(q, filter), q.now, lr[i] as (number | null)[], c.w, c.decay, c.unit), q.evidence),
  }));
  const { tune, heldOut } = split(scored, (x) => x.q.conv);
  const mean = (xs: typeof scored) => xs.reduce((a, x) => a + x.s.r10, 0) / xs.length;
  const kr = relevance(c.rel[0], c.rel[1], ku, filter);
  const newer = ku.filter((q, i) => {
    const order = rank(docsFor(q, filter), q.now, kr[i] as (number | null)[], c.w, c.decay, c.unit);
    return order.indexOf("new") < order.indexOf("old");
  }).length;
  return { tune: mean(tune), held: mean(heldOut), all: mean(scored), ku: newer / ku.length };
}

// --- check the in-memory relevance against the service's SQL (contextual, a few questions) ---
{
  let worst = 0;
  for (const q of [...locomo.slice(0, 4), ...ku.slice(0, 2)]) {
    const where = and(...filterConditions(q.stream, {}));
    const v = { vector: pgvector.toSql(Array.from(q.vec)), model, dimensions: 512 };
    for (const kind of ["contextual", "windowed"] as const) {
      const rel = relevanceSql(q.stream, v, { kind, text: q.text }, where);
      const rows = await queryRows<{ id: string; rel: number }>(
        db,
        sql`WITH ${rel.ctes} done AS (SELECT 1) SELECT id, rel FROM rel_ctx`,
      );
      const byId = new Map(rows.map((r) => [r.id, r.rel]));
      const docs = (streams.get(q.stream) as Stream).docs;
      const mine =
        kind === "windowed"
          ? contextualFOf(HYBRID_VECTOR_SHARE, CONTEXT_SHARE)(docs, q)
          : contextualOf(HYBRID_VECTOR_SHARE, CONTEXT_SHARE)(docs, q);
      for (const [i, d] of docs.entries())
        worst = Math.max(worst, Math.abs((byId.get(d.id) ?? Number.NaN) - (mine[i] as number)));
    }
  }
  console.log(
    `in-memory contextual and windowed relevance vs the service SQL: max |difference| ${worst.toExponential(2)}`,
  );
  if (!(worst < 1e-6)) throw new Error("the simulation does not match the service");
}

const H = 3_600;
const D = 86_400;
const BALANCED: Weights3 = [1, 0.5, 1.5];
const ctx = (share: number, a = HYBRID_VECTOR_SHARE): [string, Rel] => [
  `contextual ${a} ${share}`,
  contextualOf(a, share),
];
const configs: Config[] = [];
const add = (c: Config) => configs.push(c);
const only = (process.env.FRONTIER ?? "base,grid,time,prf").split(",");

if (only.includes("base")) {
  add({
    name: "paper",
    rel: ["vector", (docs, q) => cosine(docs, q.vec)],
    w: [1, 1, 1],
    decay: 0.99,
    unit: H,
  });
  add({ name: "relevance only, hybrid", rel: ["hybrid", hybridOf(0.6)], w: [0, 0, 1], decay: 0.99, unit: H });
  add({ name: "relevance only, contextual 0.7", rel: ctx(0.7), w: [0, 0, 1], decay: 0.99, unit: H });
  add({
    name: "balanced (1/0.5/1.5, 0.993/day, ctx 0.7)",
    rel: ctx(0.7),
    w: BALANCED,
    decay: 0.993,
    unit: D,
  });
  add({ name: "balanced without importance", rel: ctx(0.7), w: [1, 0, 1.5], decay: 0.993, unit: D });
  add({ name: "balanced without recency", rel: ctx(0.7), w: [0, 0.5, 1.5], decay: 0.993, unit: D });
}
const timeFilter: Filter = {
  name: "time",
  window: (q) => timeWindow(q.text, new Date(q.now * 1000)),
  before: Number(process.env.TIME_BEFORE ?? 1) * D,
  after: Number(process.env.TIME_AFTER ?? 1) * D,
};
if (only.includes("grid"))
  for (const filter of process.env.TIME === "both"
    ? [null, timeFilter]
    : process.env.TIME
      ? [timeFilter]
      : [null])
    for (const a of (process.env.ALPHAS ?? String(HYBRID_VECTOR_SHARE)).split(",").map(Number))
      for (const share of (process.env.SHARES ?? "0.5,0.7").split(",").map(Number))
        for (const [un, unit] of (process.env.UNITS ?? "day,week")
          .split(",")
          .map((u) => [u, u === "day" ? D : 7 * D] as const))
          for (const decay of (process.env.DECAYS ?? "0.9,0.95,0.98,0.99,0.993,0.998").split(",").map(Number))
            for (const w of JSON.parse(
              process.env.WEIGHTS ??
                "[[1,0.5,1.5],[1,0.25,1.5],[1,0,1.5],[1,0.5,2],[1,0.25,2],[1,0,2],[1,0.5,3],[1,0,3]]",
            ) as Weights3[])
              add({
                name: `${w.join("/")} ${decay}/${un} ctx α${a} ${share}${filter ? " time" : ""}`,
                rel: ctx(share, a),
                w,
                decay,
                unit,
                filter,
              });
if (only.includes("time")) {
  const win = (q: Question) => timeWindow(q.text, new Date(q.now * 1000));
  const n = locomo.filter((q) => win(q)).length;
  console.log(
    `questions with a time expression: ${n} of ${locomo.length}; knowledge updates: ${ku.filter((q) => win(q)).length}`,
  );
  for (const [before, after] of [
    [0, 0],
    [D, D],
    [0, 7 * D],
    [2 * D, 7 * D],
    [7 * D, 14 * D],
  ] as const) {
    const filter: Filter = { name: `time ${before / D}/${after / D}`, window: win, before, after };
    add({
      name: `relevance only, ctx 0.7, time filter −${before / D}d +${after / D}d`,
      rel: ctx(0.7),
      w: [0, 0, 1],
      decay: 0.99,
      unit: H,
      filter,
    });
    add({
      name: `balanced, time filter −${before / D}d +${after / D}d`,
      rel: ctx(0.7),
      w: BALANCED,
      decay: 0.993,
      unit: D,
      filter,
    });
  }
}
if (only.includes("prf"))
  for (const [m, t, beta, gamma] of [
    [3, 5, 0.3, 0],
    [3, 10, 0.3, 0],
    [5, 10, 0.3, 0],
    [3, 5, 0.5, 0],
    [3, 0, 0, 0.5],
    [5, 0, 0, 0.5],
    [3, 0, 0, 1],
    [3, 5, 0.3, 0.5],
  ] as const) {
    const r: [string, Rel] = [`prf ${m} ${t} ${beta} ${gamma}`, prfOf(m, t, beta, gamma, 0.7)];
    add({
      name: `relevance only, ctx 0.7 + PRF m${m} t${t} β${beta} γ${gamma}`,
      rel: r,
      w: [0, 0, 1],
      decay: 0.99,
      unit: H,
    });
    add({
      name: `balanced + PRF m${m} t${t} β${beta} γ${gamma}`,
      rel: r,
      w: BALANCED,
      decay: 0.993,
      unit: D,
    });
  }

if (only.includes("pow"))
  for (const p of (process.env.POWERS ?? "1.5,2,3").split(",").map(Number)) {
    const r: [string, Rel] = [
      `ctx 0.7 ^${p}`,
      (docs, q) => minMax(contextualOf(HYBRID_VECTOR_SHARE, 0.7)(docs, q), 0).map((x) => x ** p),
    ];
    add({ name: `relevance only, ctx 0.7 ^${p}`, rel: r, w: [0, 0, 1], decay: 0.99, unit: H });
    for (const decay of [0.98, 0.99, 0.993, 0.998])
      for (const w of JSON.parse(
        process.env.WEIGHTS ?? "[[1,0.5,1.5],[1,0.5,2],[1,0.5,3],[1,0.25,2],[1,0.25,3],[1,0.5,4]]",
      ) as Weights3[])
        add({ name: `${w.join("/")} ${decay}/day ctx 0.7 ^${p}`, rel: r, w, decay, unit: D });
  }
if (only.includes("diag")) {
  const rel = contextualOf(HYBRID_VECTOR_SHARE, 0.7);
  const rows: string[] = [];
  for (const q of ku.slice(0, 12)) {
    const docs = (streams.get(q.stream) as Stream).docs;
    const r = minMax(rel(docs, q), 0);
    const rec = minMax(
      docs.map((d) => 0.993 ** ((q.now - d.accessed) / D)),
      0,
    );
    const order = r
      .map((x, i) => [x, i] as const)
      .sort((a, b) => b[0] - a[0])
      .map(([, i]) => i);
    const at = (l: string) => docs.findIndex((d) => d.label === l);
    const o = at("old");
    const n = at("new");
    rows.push(
      `${q.text} | old rel' ${r[o]?.toFixed(2)} rank ${order.indexOf(o) + 1} rec' ${rec[o]?.toFixed(2)} | new rel' ${r[n]?.toFixed(2)} rank ${order.indexOf(n) + 1} rec' ${rec[n]?.toFixed(2)}`,
    );
  }
  console.log(rows.join("\n"));
  // LoCoMo: evidence relevance' and rank, and the relevance' at rank 10 and 25.
  const ev: number[][] = [];
  for (const q of locomo) {
    const docs = (streams.get(q.stream) as Stream).docs;
    const r = minMax(rel(docs, q), 0);
    const sorted = [...r].sort((a, b) => b - a);
    for (const e of q.evidence) {
      const i = docs.findIndex((d) => d.label === e);
      if (i >= 0)
        ev.push([
          r[i] as number,
          sorted.indexOf(r[i] as number) + 1,
          sorted[9] as number,
          sorted[24] as number,
          sorted[1] as number,
        ]);
    }
  }
  const med = (k: number) => {
    const xs = ev.map((x) => x[k] as number).sort((a, b) => a - b);
    return [0.25, 0.5, 0.75].map((p) => xs[Math.floor(p * xs.length)]?.toFixed(2)).join("/");
  };
  console.log(
    `LoCoMo evidence rel' q25/50/75 ${med(0)}; rank ${med(1)}; rel' at rank 2 ${med(4)}, 10 ${med(2)}, 25 ${med(3)}`,
  );
}

if (only.includes("relx2")) {
  const ro = (name: string, rel: Rel) =>
    add({
      name: `relevance only, ${name}`,
      rel: [name, rel],
      w: [0, 0, 1],
      decay: 0.99,
      unit: H,
      filter: timeFilter,
    });
  for (const a of [0.5, 0.6, 0.7])
    for (const sh of [0.5, 0.7, 1])
      ro(`ctx on parts α${a} ${sh}`, (docs, q) =>
        fuse(
          withNeighbours(minMax(cosine(docs, q.vec), 0), sh),
          withNeighbours(minMax(bm25(docs, terms1(q)), 0), sh),
          a,
        ),
      );
  for (const [sp, sn] of [
    [0.7, 0],
    [0, 0.7],
    [0.7, 0.5],
    [0.5, 0.7],
  ] as const)
    ro(`max(prev·${sp}, next·${sn})`, (docs, q) => {
      const f = hybridOf(HYBRID_VECTOR_SHARE)(docs, q);
      return f.map((x, i) => x + Math.max(sp * (f[i - 1] ?? 0), sn * (f[i + 1] ?? 0)));
    });
}
if (only.includes("relx")) {
  const ro = (name: string, rel: Rel) =>
    add({
      name: `relevance only, ${name}`,
      rel: [name, rel],
      w: [0, 0, 1],
      decay: 0.99,
      unit: H,
      filter: timeFilter,
    });
  const a = HYBRID_VECTOR_SHARE;
  ro("ctx 0.7 (time)", contextualOf(a, 0.7));
  for (const [sp, sn] of [
    [0.5, 0.5],
    [0.3, 0.7],
    [0.7, 0.3],
    [0.4, 0.4],
    [0.3, 0.5],
  ] as const)
    ro(`sum prev ${sp} next ${sn}`, (docs, q) => {
      const f = hybridOf(a)(docs, q);
      return f.map((x, i) => x + sp * (f[i - 1] ?? 0) + sn * (f[i + 1] ?? 0));
    });
  ro("ctx on parts 0.7", (docs, q) => {
    const c = withNeighbours(minMax(cosine(docs, q.vec), 0), 0.7);
    const l = withNeighbours(minMax(bm25(docs, terms1(q)), 0), 0.7);
    return fuse(c, l, a);
  });
  // A second vector per memory: the memory embedded with its neighbours' text.
  const ctxVec = new Map<string, Float64Array>();
  const cacheFile = `/tmp/memstream-ctxvec-${fingerprint}.json`;
  const { existsSync, readFileSync, writeFileSync } = await import("node:fs");
  const cached: Record<string, number[]> = existsSync(cacheFile)
    ? JSON.parse(readFileSync(cacheFile, "utf8"))
    : {};
  const todo: [string, string][] = [];
  for (const st of streams.values())
    for (const [i, d] of st.docs.entries()) {
      const t = [st.docs[i - 1]?.text, d.text, st.docs[i + 1]?.text].filter(Boolean).join(" ");
      if (cached[d.id]) ctxVec.set(d.id, Float64Array.from(cached[d.id] as number[]));
      else todo.push([d.id, t]);
    }
  for (let i = 0; i < todo.length; i += 100) {
    const batch = todo.slice(i, i + 100);
    const vs = await embedder.embed(batch.map(([, t]) => t));
    for (const [j, [id]] of batch.entries()) {
      cached[id] = vs[j] as number[];
      ctxVec.set(id, Float64Array.from(vs[j] as number[]));
    }
  }
  writeFileSync(cacheFile, JSON.stringify(cached));
  const cosCtx = (docs: Doc[], q: Question) =>
    cosine(
      docs.map((d) => ({ ...d, vec: ctxVec.get(d.id) ?? null })),
      q.vec,
    );
  ro("vector of the memory with its neighbours", (docs, q) => cosCtx(docs, q));
  ro("vector only", (docs, q) => cosine(docs, q.vec));
  for (const b of [0.3, 0.5]) {
    ro(`hybrid with (1-${b})·cos + ${b}·cos_ctx`, (docs, q) => {
      const c1 = minMax(cosine(docs, q.vec), 0);
      const c2 = minMax(cosCtx(docs, q), 0);
      return fuse(
        c1.map((x, i) => (1 - b) * x + b * (c2[i] as number)),
        bm25(docs, terms1(q)),
        a,
      );
    });
    ro(`ctx 0.7 with (1-${b})·cos + ${b}·cos_ctx`, (docs, q) => {
      const c1 = minMax(cosine(docs, q.vec), 0);
      const c2 = minMax(cosCtx(docs, q), 0);
      return withNeighbours(
        fuse(
          c1.map((x, i) => (1 - b) * x + b * (c2[i] as number)),
          bm25(docs, terms1(q)),
          a,
        ),
        0.7,
      );
    });
  }
}

if (only.includes("lex2")) {
  // Third round: lexical variants, relevance only, with the time filter (ADR 0008).
  const ro = (name: string, rel: Rel) =>
    add({
      name: `relevance only, ${name}`,
      rel: [name, rel],
      w: [0, 0, 1],
      decay: 0.99,
      unit: H,
      filter: timeFilter,
    });
  const a = HYBRID_VECTOR_SHARE;
  // Lexemes of another text search configuration, per memory id and per question.
  const tsvOf = async (cfg: string) => {
    const byId = new Map<string, Map<string, number>>();
    for (const st of streams.values()) {
      const rows = await queryRows<{ id: string; tsv: string }>(
        db,
        sql`SELECT id, to_tsvector(${cfg}::regconfig, description)::text AS tsv FROM memories WHERE id IN (${sql.join(
          st.docs.map((d) => sql`${d.id}`),
          sql`, `,
        )})`,
      );
      for (const r of rows) byId.set(r.id, parseTsv(r.tsv));
    }
    const qt = new Map<string, string[]>();
    for (const q of [...locomo, ...ku]) {
      const [r] = await queryRows<{ t: string[] }>(
        db,
        sql`SELECT tsvector_to_array(to_tsvector(${cfg}::regconfig, ${q.text})) AS t`,
      );
      qt.set(q.text, r?.t ?? []);
    }
    return { byId, qt };
  };
  type Field = {
    tf: (d: Doc, i: number, docs: Doc[]) => Map<string, number>;
    dl: (d: Doc, i: number, docs: Doc[]) => number;
  };
  const bm25g = (docs: Doc[], terms: Map<string, number>, f: Field): number[] => {
    const { k1, b } = BM25;
    const tfs = docs.map((d, i) => f.tf(d, i, docs));
    const dls = docs.map((d, i) => f.dl(d, i, docs));
    const avgdl = dls.reduce((x, y) => x + y, 0) / docs.length;
    const df = new Map<string, number>();
    for (const tf of tfs)
      for (const t of terms.keys()) if ((tf.get(t) ?? 0) > 0) df.set(t, (df.get(t) ?? 0) + 1);
    return tfs.map((tf, i) => {
      let s = 0;
      for (const [t, w] of terms) {
        const x = tf.get(t);
        if (!x) continue;
        const n = df.get(t) as number;
        s +=
          w *
          Math.log(1 + (docs.length - n + 0.5) / (n + 0.5)) *
          ((x * (k1 + 1)) / (x + k1 * (1 - b + (b * (dls[i] as number)) / avgdl)));
      }
      return s;
    });
  };
  const own: Field = { tf: (d) => d.tf, dl: (d) => d.dl };
  const addTf = (m: Map<string, number>, o: Map<string, number> | undefined, w: number) => {
    if (o) for (const [t, x] of o) m.set(t, (m.get(t) ?? 0) + w * x);
  };
  /** BM25F: own text + w × the ±1 neighbours' text in one saturated term frequency. */
  const bm25f = (w: number, tfOf = (d: Doc) => d.tf): Field => ({
    tf: (d, i, docs) => {
      const m = new Map(tfOf(d));
      addTf(m, docs[i - 1] && tfOf(docs[i - 1] as Doc), w);
      addTf(m, docs[i + 1] && tfOf(docs[i + 1] as Doc), w);
      return m;
    },
    dl: (d, i, docs) =>
      tfOf(d).size +
      w *
        ((docs[i - 1] ? tfOf(docs[i - 1] as Doc).size : 0) +
          (docs[i + 1] ? tfOf(docs[i + 1] as Doc).size : 0)),
  });
  /** Only the neighbours' text (a second lexical query over the window). */
  const nbrOnly = (tfOf = (d: Doc) => d.tf): Field => ({
    tf: (_d, i, docs) => {
      const m = new Map<string, number>();
      addTf(m, docs[i - 1] && tfOf(docs[i - 1] as Doc), 1);
      addTf(m, docs[i + 1] && tfOf(docs[i + 1] as Doc), 1);
      return m;
    },
    dl: (_d, i, docs) =>
      (docs[i - 1] ? tfOf(docs[i - 1] as Doc).size : 0) + (docs[i + 1] ? tfOf(docs[i + 1] as Doc).size : 0),
  });
  const vars = (process.env.LEX2 ?? "base,bm25f,nbr,cfg,strip,rrf").split(",");
  if (vars.includes("base")) ro("ctx 0.7", contextualOf(a, 0.7));
  if (vars.includes("bm25f"))
    for (const w of [0.2, 0.35, 0.5, 1])
      for (const share of [0, 0.35, 0.5, 0.7]) {
        ro(`BM25F nbr w${w}, ctx ${share}`, (docs, q) =>
          withNeighbours(fuse(cosine(docs, q.vec), bm25g(docs, terms1(q), bm25f(w)), a), share),
        );
      }
  if (vars.includes("default"))
    for (const w of (process.env.FIELD_WEIGHTS ?? "0,0.35,0.5,1").split(",").map(Number))
      for (const [wts, decay] of JSON.parse(
        process.env.POINTS ?? "[[[1,0.5,2.25],0.998],[[1,0.5,2],0.998],[[1,0.5,2.5],0.998]]",
      ) as [Weights3, number][])
        add({
          name: `default ${wts.join("/")} ${decay}/day α0.85 ctx 0.7 BM25F w${w}`,
          rel: [
            `bm25f default ${w}`,
            (docs, q) =>
              withNeighbours(fuse(cosine(docs, q.vec), bm25g(docs, terms1(q), bm25f(w)), 0.85), 0.7),
          ],
          w: wts,
          decay,
          unit: D,
          filter: timeFilter,
        });
  if (vars.includes("wtune")) {
    // Windowed relevance around its chosen point (α 0.6, share 0.7, field weight 0.5).
    ro("windowed, no time filter", contextualFOf(a, 0.7));
    configs[configs.length - 1] = { ...(configs[configs.length - 1] as Config), filter: null };
    for (const al of [0.5, 0.7]) ro(`windowed α${al}`, contextualFOf(al, 0.7));
    for (const sh of [0.5, 1]) ro(`windowed share ${sh}`, contextualFOf(a, sh));
    // ±2 neighbours in the lexical field (the nearer at w, the farther at w2).
    for (const [w1, w2] of [
      [0.5, 0.25],
      [0.5, 0.5],
    ] as const)
      ro(`BM25F ±2 (${w1}, ${w2}), ctx 0.7`, (docs, q) => {
        const win = docs.map((d, i) => {
          const tf = new Map(d.tf);
          let dl = d.dl;
          for (const [off, w] of [
            [-1, w1],
            [1, w1],
            [-2, w2],
            [2, w2],
          ] as const) {
            const n = docs[i + off];
            if (n) {
              dl += w * n.dl;
              for (const [t, x] of n.tf) tf.set(t, (tf.get(t) ?? 0) + w * x);
            }
          }
          return { ...d, tf, dl };
        });
        return withNeighbours(fuse(cosine(docs, q.vec), bm25(win, terms1(q)), a), 0.7);
      });
    // The vector part over the window too: cosine of the mean of own + w × neighbours' vectors.
    for (const w of [0.25, 0.5])
      ro(`windowed + window vector w${w}`, (docs, q) => {
        const vdocs = docs.map((d, i) => {
          if (!d.vec) return d;
          const v = Float64Array.from(d.vec);
          for (const n of [docs[i - 1], docs[i + 1]])
            if (n?.vec) for (let j = 0; j < v.length; j++) v[j] = (v[j] as number) + w * (n.vec[j] as number);
          return { ...d, vec: v };
        });
        return withNeighbours(fuse(cosine(vdocs, q.vec), bm25g(docs, terms1(q), bm25f(0.5)), a), 0.7);
      });
  }
  if (vars.includes("wdefault"))
    for (const w of (process.env.FIELD_WEIGHTS ?? "0.2,0.35").split(",").map(Number))
      for (const al of (process.env.ALPHAS ?? "0.85,0.9").split(",").map(Number))
        for (const [wts, decay] of JSON.parse(
          process.env.POINTS ??
            "[[[1,0.5,2],0.998],[[1,0.5,2.25],0.998],[[1,0.5,2.5],0.998],[[1,0.5,2.75],0.998]]",
        ) as [Weights3, number][])
          add({
            name: `default ${wts.join("/")} ${decay}/day α${al} windowed w${w}`,
            rel: [`windowed ${al} ${w}`, contextualFOf(al, 0.7, w)],
            w: wts,
            decay,
            unit: D,
            filter: timeFilter,
          });
  if (vars.includes("nbr"))
    for (const g of [0.2, 0.35, 0.5])
      for (const share of [0, 0.5, 0.7])
        ro(`3-way cos/own/nbr g${g}, ctx ${share}`, (docs, q) => {
          const c = minMax(cosine(docs, q.vec), 0);
          const l = minMax(bm25(docs, terms1(q)), 0);
          const n = minMax(bm25g(docs, terms1(q), nbrOnly()), 0);
          return withNeighbours(
            c.map((x, i) => a * x + (1 - a) * ((1 - g) * (l[i] as number) + g * (n[i] as number))),
            share,
          );
        });
  if (vars.includes("cfg"))
    for (const cfg of (process.env.CFGS ?? "simple").split(",")) {
      const { byId, qt } = await tsvOf(cfg);
      const tfOf = (d: Doc) => byId.get(d.id) ?? new Map();
      const field: Field = { tf: (d) => tfOf(d), dl: (d) => tfOf(d).size };
      const qterms = (q: Question) => new Map((qt.get(q.text) ?? []).map((t) => [t, 1]));
      ro(`${cfg} ctx 0.7`, (docs, q) =>
        withNeighbours(fuse(cosine(docs, q.vec), bm25g(docs, qterms(q), field), a), 0.7),
      );
      ro(`${cfg} lexical only`, (docs, q) => bm25g(docs, qterms(q), field));
      // Both configurations' BM25, averaged after min-max.
      ro(`english+${cfg} ctx 0.7`, (docs, q) => {
        const l1 = minMax(bm25(docs, terms1(q)), 0);
        const l2 = minMax(bm25g(docs, qterms(q), field), 0);
        const c = minMax(cosine(docs, q.vec), 0);
        return withNeighbours(
          c.map((x, i) => a * x + (1 - a) * 0.5 * ((l1[i] as number) + (l2[i] as number))),
          0.7,
        );
      });
    }
  if (vars.includes("strip")) {
    // Question words the english stop list keeps, and the speakers' names (in every turn of theirs).
    const extra = new Set(
      (process.env.STRIP ?? "mention,favorit,kind,like,think,feel,would,year,time,recent").split(","),
    );
    const names = new Set<string>();
    for (const st of streams.values())
      for (const d of st.docs.slice(0, 50)) {
        const m = d.text.match(/^(\w+) said,/);
        if (m)
          for (const [t] of d.tf)
            if (t === (m[1] as string).toLowerCase().slice(0, t.length) && t.length >= 3) names.add(t);
      }
    console.log(`speaker lexemes: ${[...names].join(" ")}`);
    ro("strip extra question words", (docs, q) =>
      withNeighbours(
        fuse(
          cosine(docs, q.vec),
          bm25(docs, new Map(q.terms.filter((t) => !extra.has(t)).map((t) => [t, 1]))),
          a,
        ),
        0.7,
      ),
    );
    for (const w of [0, 0.3])
      ro(`speaker names weight ${w}`, (docs, q) =>
        withNeighbours(
          fuse(cosine(docs, q.vec), bm25(docs, new Map(q.terms.map((t) => [t, names.has(t) ? w : 1]))), a),
          0.7,
        ),
      );
  }
  if (vars.includes("rrf"))
    for (const k of [5, 10, 30])
      for (const share of [0.5, 0.7])
        ro(`RRF k${k} of cos and bm25, ctx ${share}`, (docs, q) => {
          const rk = (xs: (number | null)[]) => {
            const order = xs
              .map((x, i) => [x ?? Number.NEGATIVE_INFINITY, i] as const)
              .sort((p, r) => r[0] - p[0]);
            const out = new Array<number>(xs.length);
            for (const [r, [, i]] of order.entries()) out[i] = r + 1;
            return out;
          };
          const rc = rk(cosine(docs, q.vec));
          const rl = rk(bm25(docs, terms1(q)));
          return withNeighbours(
            minMax(
              rc.map((r, i) => a / (k + r) + (1 - a) / (k + (rl[i] as number))),
              0,
            ),
            share,
          );
        });
  void own;
}
const rows = configs.map((c) => {
  const r = run(c);
  const row = {
    config: c.name,
    "tune r@10": r.tune,
    "held-out r@10": r.held,
    "all r@10": r.all,
    "KU newer first": r.ku,
  };
  console.log(JSON.stringify(row));
  return row;
});
const { tune, heldOut } = split(locomo, (q) => q.conv);
console.log(
  `tuning: ${tune.length} questions; held out (${HELD_OUT.join(", ")}): ${heldOut.length}; KU cases ${ku.length}`,
);
printTable(
  rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "number" ? v.toFixed(3) : v])),
  ),
);
void minMax;
await system.close();
