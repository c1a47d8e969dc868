/**
 * The default ranking's requirements side by side, in memory (bench/lib/sim.ts):
 * LoCoMo dev recall@10 on the tuning half and the held-out half (bench/lib/split.ts; choose on
 * the first, report the second) with BM25 beside, and the knowledge-update cases of
 * test/support/knowledge-updates.ts (current-state and past-state questions, months and minutes
 * apart, chains of three). Needs EVAL_DATABASE_URL loaded by `npm run eval:locomo`; stores the
 * knowledge-update cases there (agents `ku2-…`) through the API, as the test does.
 *   EVAL_DATABASE_URL=… LOCOMO_DIR=… nice -n 5 npx tsx bench/explore/tune-default.ts
 * GRID=… selects rows (comma-separated names of the blocks below). Reads whole streams into Node
 * by design (a few hundred memories each); the service never does.
 */
import { sql } from "drizzle-orm";
import { createApp } from "../../src/api/app";
import { queryRows } from "../../src/db/client";
import { type Focus, liftOf, timeFocus } from "../../src/memory/retrieve/focus";
import { IMPORTANCE_FLOOR_POINTS, RECENCY_FLOOR_UNITS } from "../../src/memory/retrieve/ranking/components";
import { VERSION_SIMILARITY, VERSION_TOP } from "../../src/memory/retrieve/ranking/versions";
import { timeWindow } from "../../src/memory/retrieve/time-window";
import { KU_NOW, knowledgeUpdateCases } from "../../test/support/knowledge-updates";
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
  type Question,
  questionsOf,
  readStreams,
  type Stream,
  withNeighbours,
} from "../lib/sim";
import { split } from "../lib/split";
import { printTable } from "../lib/stats";

const { queries, fingerprint, system, db, model } = await openLocomoEval();
const { embedder } = system.providers;
const app = createApp(system.app);

const KU_COUNT = Number(process.env.KU_COUNT ?? 160);
const kuCases = knowledgeUpdateCases(KU_COUNT);
const kuAgent = (i: number) => `ku2-${model}:${i}`;
{
  const expected = kuCases.reduce((s, c) => s + c.versions.length + c.fillers.length, 0);
  const [{ n } = { n: 0 }] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM memories WHERE agent_id LIKE ${`ku2-${model}:%`}`,
  );
  if (n !== expected) {
    await db.execute(sql`DELETE FROM memories WHERE agent_id LIKE ${`ku2-${model}:%`}`);
    const texts = [
      ...new Set(kuCases.flatMap((c) => [...c.versions.map((v) => v.text), ...c.fillers.map((f) => f.text)])),
    ];
    const vs = await embedder.embed(texts);
    const vec = new Map(texts.map((x, i) => [x, vs[i] as number[]]));
    for (const [i, c] of kuCases.entries()) {
      const items = [
        ...c.versions.map((v, j) => ({ ...v, importance: 5, label: `v${j}` })),
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

const locomoAgent = (conv: string) => `locomo-${fingerprint}-${model}:${conv}`;
const asked = queries.filter((q) => q.evidence.length > 0);
const streams = await readStreams(
  db,
  [...asked.map((q) => locomoAgent(q.conversation_id)), ...[...kuCases.keys()].map(kuAgent)],
  model,
);

type Q = Question & {
  focus: Focus;
  kind?: string;
  gap?: string;
  chain?: boolean;
  target?: string;
  versions?: string[];
};
async function toQuestions(
  xs: (Omit<Q, "vec" | "terms" | "now" | "focus"> & { now: string })[],
): Promise<Q[]> {
  return (await questionsOf(embedder, db, xs)).map((x) => ({ ...x, focus: timeFocus(x.text) }));
}
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
    evidence: [],
    now: KU_NOW,
    kind: c.kind,
    gap: c.gap,
    chain: c.versions.length === 3,
    target: `v${c.target}`,
    versions: c.versions.map((_, j) => `v${j}`),
  })),
);
{
  const count = (qs: Q[]) =>
    Object.fromEntries(["present", "past", "none"].map((f) => [f, qs.filter((q) => q.focus === f).length]));
  console.log(
    "focus, LoCoMo:",
    count(locomo),
    "KU current:",
    count(ku.filter((q) => q.kind === "current")),
    "KU past:",
    count(ku.filter((q) => q.kind === "past")),
  );
  for (const q of ku.filter((q) => (q.kind === "current") !== (q.focus === "present")).slice(0, 8))
    console.log("  misread:", q.kind, q.focus, q.text);
}

// --- relevance variants: raw relevance per doc ---
type Rel = (docs: Doc[], q: Question) => (number | null)[];
const terms1 = (q: Question) => new Map(q.terms.map((t) => [t, 1]));
const contextual =
  (a: number, share: number): Rel =>
  (docs, q) =>
    withNeighbours(fuse(cosine(docs, q.vec), bm25(docs, terms1(q)), a), share, 1, docs);
/** The service's windowed relevance: BM25F, the cosine without the question form (sim.ts's formCosine). */
const windowed =
  (a: number, share: number, w = 0.5): Rel =>
  (docs, q) =>
    withNeighbours(
      fuse(formCosine(docs, (streams.get(q.stream) as Stream).docs, q.vec), bm25f(docs, terms1(q), w), a),
      share,
      1,
      docs,
    );
const lexical: Rel = (docs, q) => bm25(docs, terms1(q));

const D = 86_400;
function docsFor(q: Question, time: boolean): Doc[] {
  const all = (streams.get(q.stream) as Stream).docs;
  if (!time) return all;
  const w = timeWindow(q.text, new Date(q.now * 1000));
  if (!w) return all;
  const inside = all.filter((d) => d.at >= w.start - D && d.at < w.end + D);
  return inside.length > 0 ? inside : all;
}
const relCache = new Map<string, (number | null)[][]>();
function relevance(name: string, rel: Rel, qs: Q[], time: boolean) {
  const key = `${name} ${time} ${qs === ku ? "ku" : "locomo"}`;
  let v = relCache.get(key);
  if (!v) {
    v = qs.map((q) => rel(docsFor(q, time), q));
    relCache.set(key, v);
  }
  return v;
}

/** min-max whose range is at least `floor` (so a tiny spread stays small). */
const floored = (xs: (number | null)[], missing: number, floor: number) => {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const x of xs)
    if (x !== null) {
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
  const r = Math.max(hi - lo, floor);
  return xs.map((x) => (x === null ? missing : r > 0 ? (x - lo) / r : 0.5));
};

type Config = {
  name: string;
  rel: [string, Rel];
  time: boolean;
  w: [number, number, number];
  decay: number;
  unit: number;
  recFloor?: number;
  impFloor?: number;
  /** Present focus: the best `n` by score get + w × (their createdAt rank among those n, scaled 0..1). */
  currency?: { n: number; w: number; focus: Focus[]; how?: "ordinal" | "minmax" };
  /**
   * Versions: among the best `n`, a memory whose cosine to a better-scored one is ≥ `tau` and is
   * newer (present focus) or older (a past-state question: "before", "used to") takes that score;
   * equal scores go newest (present) or oldest (past) first.
   */
  versions?: { n: number; tau: number; past: boolean; pastTau?: number; resid?: boolean };
};
const cos2 = (a: Float64Array | null, b: Float64Array | null) => {
  if (!a || !b) return 0;
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return d / Math.sqrt(na * nb);
};
const PAST_STATE = /\b(before|used to|use to|previous|previously|formerly|former|originally|at first)\b/i;

/** Cosine of a and b after removing the query's direction from both (what they share besides the question). */
const residCos = (a: Float64Array | null, b: Float64Array | null, q: Float64Array) => {
  if (!a || !b) return 0;
  const dot = (x: Float64Array, y: Float64Array) => x.reduce((s, xi, i) => s + xi * (y[i] as number), 0);
  const qq = dot(q, q);
  const aq = dot(a, q);
  const bq = dot(b, q);
  const ab = dot(a, b) - (aq * bq) / qq;
  const aa = dot(a, a) - (aq * aq) / qq;
  const bb = dot(b, b) - (bq * bq) / qq;
  return ab / Math.sqrt(aa * bb);
};
function rankOf(c: Config, q: Q, rel: (number | null)[]): string[] {
  const docs = docsFor(q, c.time);
  const rec = floored(
    docs.map((d) => c.decay ** Math.max((q.now - d.accessed) / c.unit, 0)),
    0,
    c.recFloor ?? 0,
  );
  const imp = floored(
    docs.map((d) => d.imp),
    0.5,
    c.impFloor ?? 0,
  );
  const r = minMax(rel, 0);
  const scored = docs.map((d, i) => ({
    d,
    s: c.w[0] * (rec[i] as number) + c.w[1] * (imp[i] as number) + c.w[2] * (r[i] as number),
  }));
  const order = (a: { d: Doc; s: number }, b: { d: Doc; s: number }) =>
    b.s - a.s || (a.d.id < b.d.id ? -1 : 1);
  scored.sort(order);
  const cur = c.currency;
  if (cur?.focus.includes(q.focus)) {
    const top = scored.slice(0, cur.n);
    const byTime = [...top].sort((a, b) => a.d.at - b.d.at || (a.d.id < b.d.id ? -1 : 1));
    const lo = byTime[0]?.d.at ?? 0;
    const hi = byTime.at(-1)?.d.at ?? 0;
    const bonus = new Map(
      byTime.map((x, j) => [
        x.d.id,
        cur.how === "minmax"
          ? hi > lo
            ? (x.d.at - lo) / (hi - lo)
            : 0.5
          : top.length > 1
            ? j / (top.length - 1)
            : 0.5,
      ]),
    );
    const re = top.map((x) => ({ d: x.d, s: x.s + cur.w * (bonus.get(x.d.id) as number) })).sort(order);
    scored.splice(0, top.length, ...re);
  }
  const v = c.versions;
  // liftOf lifts the newer version only; `past` simulates lifting the older for past-state questions too.
  const dir = liftOf(q.focus) === "newer" ? 1 : v?.past && PAST_STATE.test(q.text) ? -1 : 0;
  if (v && dir !== 0) {
    const top = scored.slice(0, v.n);
    const tau = dir > 0 ? v.tau : (v.pastTau ?? v.tau);
    const re = top.map((x) => {
      let s = x.s;
      let sim = 1;
      for (const y of top) {
        const c = v.resid ? residCos(x.d.vec, y.d.vec, q.vec) : cos2(x.d.vec, y.d.vec);
        if (y.s > s && dir * (x.d.at - y.d.at) > 0 && c >= tau) {
          s = y.s;
          sim = c;
        }
      }
      return { d: x.d, s, sim };
    });
    re.sort(
      (a, b) =>
        b.s - a.s || (dir < 0 ? b.sim - a.sim : 0) || dir * (b.d.at - a.d.at) || (a.d.id < b.d.id ? -1 : 1),
    );
    scored.splice(0, top.length, ...re);
  }
  return scored.map((x) => x.d.label);
}
function run(c: Config) {
  const lr = relevance(c.rel[0], c.rel[1], locomo, c.time);
  const scored = locomo.map((q, i) => ({
    q,
    s: score(rankOf(c, q, lr[i] as (number | null)[]), q.evidence),
  }));
  const { tune, heldOut } = split(scored, (x) => x.q.conv);
  const mean = (xs: typeof scored, f: (s: (typeof scored)[number]["s"]) => number = (s) => s.r10) =>
    xs.reduce((a, x) => a + f(x.s), 0) / xs.length;
  const kr = relevance(c.rel[0], c.rel[1], ku, c.time);
  const ok = ku.map((q, i) => {
    const order = rankOf(c, q, kr[i] as (number | null)[]);
    const at = (l: string) => order.indexOf(l);
    const t = at(q.target as string);
    return q.kind === "current"
      ? (q.versions as string[]).every((v) => v === q.target || at(v) > t)
      : order.slice(0, t).every((l) => !l.startsWith("filler"));
  });
  const rate = (f: (q: Q) => boolean) => {
    const xs = ku.map((q, i) => [q, ok[i]] as const).filter(([q]) => f(q));
    return xs.filter(([, o]) => o).length / xs.length;
  };
  return {
    ranking: c.name,
    "r@10 tune": mean(tune),
    "r@10 held": mean(heldOut),
    "r@5 held": mean(heldOut, (s) => s.r5),
    "ndcg held": mean(heldOut, (s) => s.ndcg10),
    KU: rate(() => true),
    "KU cur": rate((q) => q.kind === "current"),
    "KU past": rate((q) => q.kind === "past"),
    "cur min": rate((q) => q.kind === "current" && q.gap === "minutes"),
    "cur 3v": rate((q) => q.kind === "current" && q.chain === true),
    "cur mo 2v": rate((q) => q.kind === "current" && q.gap === "months" && q.chain === false),
  };
}

const configs: Config[] = [];
const grid = (process.env.GRID ?? "base,cur").split(",");
const REL0: Config["w"] = [0, 0, 1];
const win06: [string, Rel] = ["windowed 0.6 0.7", windowed(0.6, 0.7)];
if (grid.includes("base")) {
  configs.push({ name: "BM25", rel: ["lexical", lexical], time: false, w: REL0, decay: 1, unit: D });
  configs.push({
    name: "old default (1/0.5/2.25, .998/d, ctx α.85, time)",
    rel: ["ctx 0.85", contextual(0.85, 0.7)],
    time: true,
    w: [1, 0.5, 2.25],
    decay: 0.998,
    unit: D,
  });
  configs.push({
    name: "relevance only, contextual α.6 + time",
    rel: ["ctx 0.6", contextual(0.6, 0.7)],
    time: true,
    w: REL0,
    decay: 1,
    unit: D,
  });
  configs.push({
    name: "relevance only, windowed α.6 + time",
    rel: win06,
    time: true,
    w: REL0,
    decay: 1,
    unit: D,
  });
}
if (grid.includes("cur"))
  for (const n of (process.env.NS ?? "5,10").split(",").map(Number))
    for (const w of (process.env.CW ?? "0.5,1,2").split(",").map(Number))
      for (const how of ["ordinal", "minmax"] as const)
        configs.push({
          name: `windowed+time, currency n${n} w${w} ${how}`,
          rel: win06,
          time: true,
          w: REL0,
          decay: 1,
          unit: D,
          currency: { n, w, focus: ["present"], how },
        });
if (grid.includes("ver"))
  for (const n of (process.env.NS ?? "10").split(",").map(Number))
    for (const tau of (process.env.TAUS ?? "0.3,0.4,0.5,0.6,0.7").split(",").map(Number))
      configs.push({
        name: `windowed+time, versions n${n} τ${tau}`,
        rel: win06,
        time: true,
        w: REL0,
        decay: 1,
        unit: D,
        versions: {
          n,
          tau,
          past: true,
          pastTau: Number(process.env.PAST_TAU ?? tau),
          resid: process.env.RESID === "1",
        },
      });
if (grid.includes("cos")) {
  // Cosine between versions of a fact, and between a version and a filler about the same person.
  const vv: number[] = [];
  const vf: number[] = [];
  for (const q of ku) {
    const docs = (streams.get(q.stream) as Stream).docs;
    const vs = docs.filter((d) => d.label.startsWith("v"));
    const fs = docs.filter((d) => d.label === "filler 0" || d.label === "filler 1");
    for (const a of vs) {
      for (const b of vs) if (a.label < b.label) vv.push(cos2(a.vec, b.vec));
      for (const f of fs) vf.push(cos2(a.vec, f.vec));
    }
  }
  const q = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]?.toFixed(2);
  console.log(
    "cos version–version p10/p50/p90",
    q(vv, 0.1),
    q(vv, 0.5),
    q(vv, 0.9),
    "version–filler(same name)",
    q(vf, 0.1),
    q(vf, 0.5),
    q(vf, 0.9),
  );
}
if (grid.includes("mix"))
  for (const rw of (process.env.RW ?? "0,0.1,0.2").split(",").map(Number))
    for (const iw of (process.env.IW ?? "0,0.1,0.2").split(",").map(Number))
      for (const floors of [true, false])
        configs.push({
          name: `${process.env.CTX === "1" ? "contextual" : "windowed"}+time ${rw}/${iw}/1 .998/d${floors ? " floors" : ""}, versions`,
          rel: process.env.CTX === "1" ? ["ctx 0.6", contextual(0.6, 0.7)] : win06,
          time: true,
          w: [rw, iw, 1],
          decay: 0.998,
          unit: D,
          recFloor: floors ? 1 - 0.998 ** RECENCY_FLOOR_UNITS : 0,
          impFloor: floors ? IMPORTANCE_FLOOR_POINTS : 0,
          versions: { n: VERSION_TOP, tau: VERSION_SIMILARITY, past: process.env.PAST === "1" },
        });
const fixed = (r: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "number" ? v.toFixed(3) : v]));
printTable(configs.map((c) => fixed(run(c))));
await system.close();
if (grid.includes("diag")) {
  const c = configs.find((x) => x.name.includes(process.env.DIAG ?? "windowed α.6")) as Config;
  const kr = relevance(c.rel[0], c.rel[1], ku, c.time);
  let shown = 0;
  for (const [i, q] of ku.entries()) {
    const order = rankOf(c, q, kr[i] as (number | null)[]);
    const t = order.indexOf(q.target as string);
    const ok =
      q.kind === "current"
        ? (q.versions as string[]).every((v) => v === q.target || order.indexOf(v) > t)
        : order.slice(0, t).every((l) => !l.startsWith("filler"));
    if (ok || shown++ > Number(process.env.DIAG_N ?? 12)) continue;
    const docs = (streams.get(q.stream) as Stream).docs;
    const text = (l: string) => docs.find((d) => d.label === l)?.text;
    console.log(
      `${q.kind} ${q.gap} ${q.text} → target ${q.target}: ${order
        .slice(0, 5)
        .map((l) => `${l}:${text(l)}`)
        .join(" | ")}`,
    );
  }
}
