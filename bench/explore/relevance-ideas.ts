/**
 * "Best relevance alone ≥ 0.82 on the untuned half": ideas beyond windowed relevance
 * scored in memory (bench/lib/sim.ts) on LoCoMo dev, relevance alone (weights 0/0/1) with the
 * time filter, recall@10 on the tuning half and the held-out half (bench/lib/split.ts), BM25 beside.
 * Needs EVAL_DATABASE_URL loaded by `npm run eval:locomo`.
 *   EVAL_DATABASE_URL=… LOCOMO_DIR=… nice -n 5 npx tsx bench/explore/relevance-ideas.ts
 * GRID=… selects blocks (comma-separated names below; default all).
 */
import { NEIGHBOUR_GAP_S } from "../../src/memory/retrieve/ranking/relevance/kinds";
import { timeWindow } from "../../src/memory/retrieve/time-window";
import { openLocomoEval } from "../lib/eval-system";
import { score } from "../lib/locomo";
import {
  bm25,
  bm25f,
  cosine,
  type Doc,
  formDirection,
  fuse,
  minMax,
  type Question,
  questionsOf,
  readStreams,
  type Stream,
  unitVector,
  withNeighbours,
  withoutForm,
} from "../lib/sim";
import { split } from "../lib/split";
import { printTable } from "../lib/stats";

const { queries, fingerprint, system, db, model } = await openLocomoEval();
const { embedder } = system.providers;
const agentOf = (conv: string) => `locomo-${fingerprint}-${model}:${conv}`;
const asked = queries.filter((q) => q.evidence.length > 0);
const streams = await readStreams(
  db,
  asked.map((q) => agentOf(q.conversation_id)),
  model,
);

type Q = Omit<Question, "category">;
/**
 * The question as a statement for the vector (asymmetric retrieval: a sentence encoder puts a
 * question near other questions — the other speaker's "What got you into running?" — and the
 * answer is a statement). Deterministic: drop a leading wh-word and auxiliary and the "?".
 * QUERY_FORM=statement selects it; the default is the question as asked.
 */
const WH = /^(what|which|who|whom|whose|where|when|why|how(\s+(many|much|long|often|old|far))?)\b\s*/i;
const AUX = /^(do|does|did|is|are|was|were|has|have|had|can|could|would|will|should|might)\b\s*/i;
const asStatement = (q: string) => {
  let s = q.trim().replace(/\?+$/, "");
  const wh = WH.test(s);
  s = s.replace(WH, "");
  if (wh || AUX.test(s)) s = s.replace(AUX, "");
  return s.length > 0 ? s : q;
};
const qs: Q[] = await questionsOf(
  embedder,
  db,
  asked.map((q) => ({
    stream: agentOf(q.conversation_id),
    text: q.question,
    ...(process.env.QUERY_FORM === "statement" ? { embed: asStatement(q.question) } : {}),
    conv: q.conversation_id,
    evidence: q.evidence,
    now: q.now,
  })),
);

const D = 86_400;
function docsFor(q: Q, time: boolean): Doc[] {
  const all = (streams.get(q.stream) as Stream).docs;
  if (!time) return all;
  const w = timeWindow(q.text, new Date(q.now * 1000));
  if (!w) return all;
  const inside = all.filter((d) => d.at >= w.start - D && d.at < w.end + D);
  return inside.length > 0 ? inside : all;
}

type Rel = (docs: Doc[], q: Q) => number[];
const terms1 = (q: Q) => new Map(q.terms.map((t) => [t, 1]));
const near = (docs: Doc[], i: number, j: number, gap = NEIGHBOUR_GAP_S) =>
  j >= 0 && j < docs.length && Math.abs((docs[i] as Doc).at - (docs[j] as Doc).at) <= gap;

/** The memories up to `n` places either side of memory i in its run (each within `gap` of the next), at w·decay^(|d|−1). */
function reachOf(docs: Doc[], i: number, w: number, n = 1, decay = 1, gap = NEIGHBOUR_GAP_S) {
  const out: { j: number; w: number }[] = [];
  for (const dir of [-1, 1])
    for (let k = 1; k <= n; k++) {
      const j = i + dir * k;
      if (j < 0 || j >= docs.length || !near(docs, i + dir * (k - 1), j, gap)) break;
      out.push({ j, w: w * decay ** (k - 1) });
    }
  return out;
}

/**
 * Each memory as its window: own words (from `own`, default the docs themselves) + the words of
 * its neighbours (reachOf).
 */
function windows(docs: Doc[], w: number, n = 1, decay = 1, gap = NEIGHBOUR_GAP_S, own: Doc[] = docs): Doc[] {
  return own.map((d, i) => {
    const tf = new Map(d.tf);
    let dl = d.dl;
    for (const { j, w: ww } of reachOf(docs, i, w, n, decay, gap)) {
      const x = docs[j] as Doc;
      dl += ww * x.dl;
      for (const [t, c] of x.tf) tf.set(t, (tf.get(t) ?? 0) + ww * c);
    }
    return { ...d, tf, dl };
  });
}

/** BM25F with neighbours up to `n` either side of the same run, weight w·decay^(|d|−1) (sim.ts's bm25f, with a gap). */
const bm25fN = (
  docs: Doc[],
  terms: Map<string, number>,
  w: number,
  n = 1,
  decay = 1,
  gap = NEIGHBOUR_GAP_S,
): number[] => bm25(windows(docs, w, n, decay, gap), terms);

const withNb = (
  rel: number[],
  share: number,
  docs: Doc[],
  n = 1,
  mode: "max" | "sum" = "max",
  gap = NEIGHBOUR_GAP_S,
  decay = 1,
) =>
  rel.map((r, i) => {
    let best = 0;
    let sum = 0;
    for (let d = -n; d <= n; d++)
      if (d !== 0 && near(docs, i, i + d, gap)) {
        const v = (rel[i + d] as number) * decay ** (Math.abs(d) - 1);
        best = Math.max(best, v);
        sum += v;
      }
    return r + share * (mode === "max" ? best : sum / 2);
  });

const addTo = (acc: Float64Array, v: Float64Array, w: number) => {
  for (let i = 0; i < acc.length; i++) acc[i] = (acc[i] as number) + w * (v[i] as number);
};

/** Windowed relevance before this ADR: BM25F with the ±1 neighbours (the baseline the ideas build on). */
const windowed =
  (a = 0.6, share = 0.7, w = 0.5): Rel =>
  (docs, q) =>
    withNeighbours(fuse(cosine(docs, q.vec), bm25f(docs, terms1(q), w, 1), a), share, 1, docs);

/** Ranks (0 = best) of xs, descending, nulls last; ties broken by index. */
const ranks = (xs: (number | null)[]) => {
  const idx = xs.map((_, i) => i).sort((i, j) => (xs[j] ?? -1e9) - (xs[i] ?? -1e9) || i - j);
  const r = new Array<number>(xs.length);
  idx.forEach((i, k) => {
    r[i] = k;
  });
  return r;
};

/** Reciprocal-rank fusion of cosine and BM25F (zero BM25 ranks count as absent), then neighbours. */
const rrf =
  (k = 60, wv = 1, share = 0.7, w = 0.5): Rel =>
  (docs, q) => {
    const c = cosine(docs, q.vec);
    const l = bm25f(docs, terms1(q), w, 1);
    const rc = ranks(c);
    const rl = ranks(l);
    const f = docs.map(
      (_, i) =>
        wv / (k + (rc[i] as number) + 1) + ((l[i] as number) > 0 ? 1 / (k + (rl[i] as number) + 1) : 0),
    );
    return withNeighbours(minMax(f, 0), share, 1, docs);
  };

/** Vector of the window: own vector + w × neighbours' (normalized each), cosine to the query. */
const windowVec =
  (a = 0.6, share = 0.7, w = 0.5, vw = 0.5, n = 1, decay = 1): Rel =>
  (docs, q) => {
    const vecs = docs.map((d, i) => {
      if (!d.vec) return null;
      const acc = unitVector(d.vec);
      for (const j of [i - 1, i + 1]) {
        const x = docs[j];
        if (x?.vec && near(docs, i, j)) addTo(acc, unitVector(x.vec), vw);
      }
      return acc;
    });
    const wd = docs.map((d, i) => ({ ...d, vec: vecs[i] ?? null }));
    return withNeighbours(fuse(cosine(wd, q.vec), bm25fN(docs, terms1(q), w, n, decay), a), share, 1, docs);
  };

/** Rocchio: query vector + β × mean of the top m docs' (by windowed) normalized vectors, then windowed again. */
const rocchio =
  (m = 5, beta = 0.5, a = 0.6, share = 0.7, w = 0.5, nb = 0): Rel =>
  (docs, q) => {
    const first = windowed(a, share, w)(docs, q);
    const top = ranks(first)
      .map((r, i) => [r, i] as const)
      .filter(([r]) => r < m)
      .map(([, i]) => i);
    const qv = unitVector(q.vec);
    const acc = new Float64Array(qv.length);
    let cnt = 0;
    for (const i of top) {
      for (let j = i - nb; j <= i + nb; j++) {
        const d = docs[j];
        if (d?.vec && (j === i || near(docs, i, j))) {
          addTo(acc, unitVector(d.vec), j === i ? 1 : 0.5);
          cnt += j === i ? 1 : 0.5;
        }
      }
    }
    if (cnt > 0) addTo(qv, acc, beta / cnt);
    return withNeighbours(fuse(cosine(docs, qv), bm25f(docs, terms1(q), w, 1), a), share, 1, docs);
  };

/** RM3-style: expansion lexemes from the top m docs' windows (by windowed), weighted by doc score, γ of the query's mass. */
const rm3 =
  (m = 5, t = 10, gamma = 0.3, a = 0.6, share = 0.7, w = 0.5, win = true, reach = 1): Rel =>
  (docs, q) => {
    const first = winVar({ a, share, w, n: reach, decay: 0.7 })(docs, q);
    const order = ranks(first);
    const top = order
      .map((r, i) => [r, i] as const)
      .filter(([r]) => r < m)
      .map(([, i]) => i);
    const n = docs.length;
    const df = new Map<string, number>();
    for (const d of docs) for (const x of d.tf.keys()) df.set(x, (df.get(x) ?? 0) + 1);
    const wt = new Map<string, number>();
    for (const i of top) {
      const s = first[i] as number;
      const parts = win ? [i - 1, i, i + 1].filter((j) => j === i || near(docs, i, j)) : [i];
      for (const j of parts) {
        const d = docs[j] as Doc;
        for (const [x, c] of d.tf) {
          const idf = Math.log(1 + n / (df.get(x) ?? 1));
          wt.set(x, (wt.get(x) ?? 0) + (s * c * idf * (j === i ? 1 : 0.5)) / d.dl);
        }
      }
    }
    const qt = terms1(q);
    const exp = [...wt]
      .filter(([x]) => !qt.has(x))
      .sort((x, y) => y[1] - x[1])
      .slice(0, t);
    const tot = exp.reduce((s, [, v]) => s + v, 0);
    const terms = new Map(qt);
    for (const [x, v] of exp) terms.set(x, (gamma * qt.size * v) / (tot || 1));
    return withNeighbours(fuse(cosine(docs, q.vec), bm25f(docs, terms, w, reach, 0.7), a), share, 1, docs);
  };

/** BM25F over ±n of the same run with the earlier memories at `before` and the later at `after` (× decay per place). */
const asym =
  (before: number, after: number, n = 5, decay = 0.7): Rel =>
  (docs, q) => {
    const win = docs.map((d, i) => {
      const tf = new Map(d.tf);
      let dl = d.dl;
      for (const [dir, w] of [
        [-1, before],
        [1, after],
      ] as const)
        for (let k = 1; k <= n; k++) {
          const x = docs[i + dir * k];
          if (!x || !near(docs, i + dir * (k - 1), i + dir * k)) break;
          const ww = w * decay ** (k - 1);
          dl += ww * x.dl;
          for (const [t, c] of x.tf) tf.set(t, (tf.get(t) ?? 0) + ww * c);
        }
      return { ...d, tf, dl };
    });
    return withNeighbours(fuse(cosine(docs, q.vec), bm25(win, terms1(q)), 0.6), 0.7, 1, docs);
  };

/** Generic windowed variant: BM25F ±n with decay, neighbour lift ±nn by max or sum, gap. */
const winVar =
  (o: {
    a?: number;
    share?: number;
    w?: number;
    n?: number;
    decay?: number;
    nn?: number;
    mode?: "max" | "sum";
    gap?: number;
    ndecay?: number;
  }): Rel =>
  (docs, q) =>
    withNb(
      fuse(
        cosine(docs, q.vec),
        bm25fN(docs, terms1(q), o.w ?? 0.5, o.n ?? 1, o.decay ?? 1, o.gap ?? NEIGHBOUR_GAP_S),
        o.a ?? 0.6,
      ),
      o.share ?? 0.7,
      docs,
      o.nn ?? 1,
      o.mode ?? "max",
      o.gap ?? NEIGHBOUR_GAP_S,
      o.ndecay ?? 1,
    );

/** Re-rank the top R of windowed by windowed + λ × (cosine of query to the window's mean vector, scaled over the R). */
const rerank =
  (R = 50, lam = 0.3, n = 1): Rel =>
  (docs, q) => {
    const first = windowed()(docs, q);
    const order = ranks(first);
    const idx = order
      .map((r, i) => [r, i] as const)
      .filter(([r]) => r < R)
      .map(([, i]) => i);
    const extra = idx.map((i) => {
      const acc = new Float64Array(q.vec.length);
      for (let j = i - n; j <= i + n; j++) {
        const d = docs[j];
        if (d?.vec && (j === i || near(docs, i, j))) addTo(acc, unitVector(d.vec), 1);
      }
      return cosine([{ vec: acc } as Doc], q.vec)[0] ?? 0;
    });
    const e = minMax(extra, 0);
    const out = [...first].map((x) => x - 10);
    idx.forEach((i, k) => {
      out[i] = (first[i] as number) + lam * (e[k] as number);
    });
    return out;
  };

/** Sessions: runs of memories each within `gap` of the previous. Returns the session index of each doc. */
const sessions = (docs: Doc[], gap = NEIGHBOUR_GAP_S) => {
  let k = 0;
  return docs.map((d, i) => (i > 0 && d.at - (docs[i - 1] as Doc).at > gap ? ++k : k));
};

/**
 * Session context: windowed + σ × the session's evidence, scaled over the candidates:
 * `max` = the best windowed relevance in the session, `mean` = its mean of the top 3,
 * `bm25` = BM25 of the session's words as one document, `cos` = cosine to the session's mean vector.
 */
const session =
  (how: "max" | "top3" | "bm25" | "cos", sigma = 0.3, gap = NEIGHBOUR_GAP_S, first: Rel = windowed()): Rel =>
  (docs, q) => {
    const base = first(docs, q);
    const s = sessions(docs, gap);
    const n = (s.at(-1) ?? 0) + 1;
    const per = new Array<number>(n).fill(0);
    if (how === "max")
      base.forEach((r, i) => {
        per[s[i] as number] = Math.max(per[s[i] as number] as number, r);
      });
    else if (how === "top3") {
      const groups: number[][] = Array.from({ length: n }, () => []);
      base.forEach((r, i) => {
        (groups[s[i] as number] as number[]).push(r);
      });
      groups.forEach((g, k) => {
        const t = g.sort((x, y) => y - x).slice(0, 3);
        per[k] = t.reduce((a, x) => a + x, 0) / 3;
      });
    } else if (how === "bm25") {
      const sd: Doc[] = Array.from({ length: n }, (_, k) => ({
        id: String(k),
        label: "",
        at: 0,
        accessed: 0,
        imp: null,
        tf: new Map(),
        dl: 0,
        vec: null,
        text: "",
      }));
      docs.forEach((d, i) => {
        const x = sd[s[i] as number] as Doc;
        x.dl += d.dl;
        for (const [t, c] of d.tf) x.tf.set(t, (x.tf.get(t) ?? 0) + c);
      });
      bm25(sd, terms1(q)).forEach((v, k) => {
        per[k] = v;
      });
    } else {
      const acc = Array.from({ length: n }, () => new Float64Array(q.vec.length));
      docs.forEach((d, i) => {
        if (d.vec) addTo(acc[s[i] as number] as Float64Array, unitVector(d.vec), 1);
      });
      cosine(
        acc.map((v) => ({ vec: v }) as Doc),
        q.vec,
      ).forEach((v, k) => {
        per[k] = v ?? 0;
      });
    }
    const sc = minMax(per, 0);
    return base.map((r, i) => r + sigma * (sc[s[i] as number] as number));
  };

/**
 * Suppression of window neighbours (soft non-maximum suppression, as object detectors drop boxes
 * that overlap a better one): the window makes the turns around a strong match score high on its
 * words, and they crowd the top 10 (6–7 of its places sit within ±2 of a better-ranked one).
 * A memory within `k` places (same run) of a better-scored one keeps × (1 − μ·decay^(|Δ|−1)) of
 * its relevance; `greedy` applies it in rank order against the memories kept so far (MMR-like),
 * otherwise against any better-scored neighbour (one pass, window functions in SQL).
 */
const nms =
  (base: Rel, k = 2, mu = 0.3, decay = 0.5, greedy = false, overlap = false): Rel =>
  (docs, q) => {
    const r = base(docs, q);
    const sameRun = (i: number, j: number) => {
      const [a, b] = i < j ? [i, j] : [j, i];
      for (let s = a; s < b; s++) if (!near(docs, s, s + 1)) return false;
      return true;
    };
    const kernel = (d: number) => (overlap ? Math.max(0, (2 * k + 1 - d) / (2 * k + 1)) : decay ** (d - 1));
    if (!greedy)
      return r.map((x, i) => {
        let pen = 0;
        for (let d = -k; d <= k; d++) {
          const j = i + d;
          if (d === 0 || j < 0 || j >= docs.length || !sameRun(i, j)) continue;
          if ((r[j] as number) > x) pen = Math.max(pen, kernel(Math.abs(d)));
        }
        return x * (1 - mu * pen);
      });
    const order = r.map((_, i) => i).sort((a, b) => (r[b] as number) - (r[a] as number) || a - b);
    const top = order.slice(0, 60);
    const out = r.map((x) => x - 100);
    const chosen: number[] = [];
    const left = new Set(top);
    while (left.size > 0) {
      let best = -1;
      let bestS = -Infinity;
      for (const i of left) {
        let pen = 0;
        for (const j of chosen) {
          const d = Math.abs(i - j);
          if (d <= k && sameRun(i, j)) pen = Math.max(pen, kernel(d));
        }
        const s = (r[i] as number) * (1 - mu * pen);
        if (s > bestS || (s === bestS && i < best)) {
          best = i;
          bestS = s;
        }
      }
      left.delete(best);
      chosen.push(best);
      out[best] = 1000 - chosen.length;
    }
    return out;
  };

/**
 * The leading words as a field (BM25F with a "title"): an observation names its actor first
 * ("Melanie said, …", "Alice moved to …", "CI failed on …"), and a question names whom it is
 * about. Lexemes first seen at position ≤ L count (1 + β)×; the length grows by β per such lexeme.
 * `ownOnly`: the neighbours' window field takes their unboosted words.
 */
const lead =
  (L = 2, beta = 1, ownOnly = false, o: Parameters<typeof winVar>[0] = { n: 5, decay: 0.7 }): Rel =>
  (docs, q) => {
    const boosted = docs.map((d) => {
      const tf = new Map(d.tf);
      let dl = d.dl;
      for (const [t, p] of d.first ?? [])
        if (p <= L) {
          tf.set(t, (tf.get(t) ?? 0) + beta);
          dl += beta;
        }
      return { ...d, tf, dl };
    });
    if (!ownOnly) return winVar(o)(boosted, q);
    // the own field boosted, the window field of the neighbours' plain words
    const win = windows(docs, o.w ?? 0.5, o.n ?? 5, o.decay ?? 0.7, NEIGHBOUR_GAP_S, boosted);
    return withNb(fuse(cosine(docs, q.vec), bm25(win, terms1(q)), o.a ?? 0.6), o.share ?? 0.7, docs);
  };

/**
 * Distribution-based fusion (Qdrant's DBSF): each signal scaled by its own mean ± 3σ over the
 * stream instead of its min and max, so one outlier (a rare word's BM25, a near-copy's cosine)
 * does not squash every other memory's score. `z`: plain z-scores, unclamped.
 */
const dbsf = (xs: (number | null)[], z = false) => {
  const v = xs.filter((x): x is number => x !== null);
  const mean = v.reduce((a, x) => a + x, 0) / (v.length || 1);
  const sd = Math.sqrt(v.reduce((a, x) => a + (x - mean) ** 2, 0) / (v.length || 1)) || 1;
  return xs.map((x) => {
    if (x === null) return 0;
    if (z) return (x - mean) / sd;
    return Math.min(1, Math.max(0, (x - (mean - 3 * sd)) / (6 * sd)));
  });
};
const fusedBy =
  (how: "dbsf" | "z" | "mixed", a = 0.6, share = 0.7): Rel =>
  (docs, q) => {
    const c = cosine(docs, q.vec);
    const l = bm25fN(docs, terms1(q), 0.5, 5, 0.7);
    let f: number[];
    if (how === "mixed") {
      // cosine by its distribution (dense scores are bunched), BM25 by min-max (zeros are meaningful)
      const cc = dbsf(c);
      const ll = minMax(l, 0);
      f = cc.map((x, i) => a * x + (1 - a) * (ll[i] as number));
    } else {
      const cc = dbsf(c, how === "z");
      const ll = dbsf(l, how === "z");
      f = cc.map((x, i) => a * x + (1 - a) * (ll[i] as number));
    }
    if (how === "z") {
      const m = Math.min(...f);
      f = f.map((x) => x - m);
    }
    return withNb(f, share, docs);
  };

/**
 * Term proximity (BM25TP, Vespa's nativeRank proximity): pairs of distinct query lexemes within
 * `span` positions of each other in a memory add idf-weighted evidence, pairs adjacent the most,
 * as one more lexical term: tf' of the pair = Σ 1/dist², saturated like BM25's tf.
 */
const proximity =
  (
    span = 3,
    gamma = 0.5,
    o: Parameters<typeof winVar>[0] = { n: 5, decay: 0.7 },
    windowedProx = false,
  ): Rel =>
  (docs, q) => {
    const win = windows(docs, o.w ?? 0.5, o.n ?? 5, o.decay ?? 0.7);
    const base = bm25(win, terms1(q));
    const ts = [...new Set(q.terms)];
    const n = docs.length;
    const df = new Map<string, number>();
    // document frequency as BM25F's: the memories whose window holds the lexeme
    for (const d of process.env.PROX_OWN_DF ? docs : win)
      for (const t of ts) if (d.tf.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
    const idf = (t: string) => Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
    const k1 = 1.2;
    const prox = docs.map((d) => {
      let s = 0;
      const pos = d.positions;
      if (!pos) return 0;
      for (let a = 0; a < ts.length; a++)
        for (let b = a + 1; b < ts.length; b++) {
          const pa = pos.get(ts[a] as string);
          const pb = pos.get(ts[b] as string);
          if (!pa || !pb) continue;
          let acc = 0;
          for (const x of pa)
            for (const y of pb) {
              const dist = Math.abs(x - y);
              if (dist > 0 && dist <= span) acc += 1 / dist ** 2;
            }
          if (acc > 0)
            s += Math.min(idf(ts[a] as string), idf(ts[b] as string)) * ((acc * (k1 + 1)) / (acc + k1));
        }
      return s;
    });
    const px = windowedProx
      ? prox.map((x, i) =>
          reachOf(docs, i, o.w ?? 0.5, o.n ?? 5, o.decay ?? 0.7).reduce(
            (acc, { j, w }) => acc + w * (prox[j] as number),
            x,
          ),
        )
      : prox;
    const lex = base.map((x, i) => x + gamma * (px[i] as number));
    return withNb(fuse(cosine(docs, q.vec), lex, o.a ?? 0.6), o.share ?? 0.7, docs);
  };

/**
 * Vectors re-centred on the stream (all-but-the-top, Mu & Viswanath 2018): a sentence encoder's
 * vectors share a common direction (and a question's form: a question is near other questions),
 * so cosine to the query is mostly that; subtracting the stream's mean vector (`centre`) and
 * projecting out the direction from its statements to its questions (`form`) leaves what differs.
 */
const meanCache = new Map<string, { mu: Float64Array; form: Float64Array | null }>();
const centred =
  (
    how: "centre" | "form" | "both",
    o: Parameters<typeof winVar>[0] = { n: 5, decay: 0.7 },
    lambda = 1,
    asking: (text: string) => boolean = (t) => /\?"?( and shared .*)?$/.test(t.trim()),
    scope: "stream" | "candidates" = "stream",
    queryOnly = false,
  ): Rel =>
  (docs, q) => {
    const all = scope === "stream" ? (streams.get(q.stream) as Stream).docs : docs;
    const key = `${q.stream}:${asking.toString()}`;
    let st = scope === "stream" ? meanCache.get(key) : undefined;
    if (!st) {
      const mu = new Float64Array(q.vec.length);
      const withVec = all.filter((d) => d.vec);
      for (const d of withVec) addTo(mu, unitVector(d.vec as Float64Array), 1 / withVec.length);
      st = { mu, form: formDirection(all, asking, 1) };
      meanCache.set(key, st);
    }
    const { mu, form } = st;
    const adjust = (v: Float64Array) => {
      const x = how === "form" ? v : unitVector(v).map((y, i) => y - (mu[i] as number));
      return how !== "centre" && form ? withoutForm(x, form, lambda) : how === "form" ? unitVector(x) : x;
    };
    const wd = queryOnly ? docs : docs.map((d) => ({ ...d, vec: d.vec ? adjust(d.vec) : null }));
    return withNb(
      fuse(
        cosine(wd, adjust(q.vec)),
        bm25fN(docs, terms1(q), o.w ?? 0.5, o.n ?? 5, o.decay ?? 0.7),
        o.a ?? 0.6,
      ),
      o.share ?? 0.7,
      docs,
    );
  };

type Row = Record<string, string | number>;
const rows: Row[] = [];
const perQuestion = new Map<string, number[]>();
function run(name: string, rel: Rel, time = true) {
  const scored = qs.map((q) => {
    const docs = docsFor(q, time);
    const r = rel(docs, q);
    const order = docs
      .map((d, i) => ({ d, s: r[i] as number }))
      .sort((x, y) => y.s - x.s || (x.d.id < y.d.id ? -1 : 1))
      .map((x) => x.d.label);
    return { q, s: score(order, q.evidence) };
  });
  const { tune, heldOut } = split(scored, (x) => x.q.conv);
  const mean = (xs: typeof scored, f = (s: (typeof scored)[number]["s"]) => s.r10) =>
    xs.reduce((acc, x) => acc + f(x.s), 0) / xs.length;
  const row = {
    ranking: name,
    "r@10 tune": mean(tune),
    "r@10 held": mean(heldOut),
    "r@10 all": mean(scored),
    "r@5 tune": mean(tune, (s) => s.r5),
    "r@5 held": mean(heldOut, (s) => s.r5),
    "ndcg tune": mean(tune, (s) => s.ndcg10),
    "ndcg held": mean(heldOut, (s) => s.ndcg10),
  };
  rows.push(row);
  perQuestion.set(
    name,
    scored.map((x) => x.s.r10),
  );
  console.log(JSON.stringify(row, (_, v) => (typeof v === "number" ? Number(v.toFixed(4)) : v)));
}

const grid = (process.env.GRID ?? "base,rrf,vecwin,rocchio,rm3,win,rerank").split(",");
if (grid.includes("base")) {
  run("BM25 (no time filter)", (docs, q) => bm25(docs, terms1(q)), false);
  run("BM25 + time", (docs, q) => bm25(docs, terms1(q)));
  run("windowed α.6 + time", windowed());
}
if (grid.includes("rrf"))
  for (const k of [10, 30, 60]) for (const wv of [0.7, 1, 1.5]) run(`rrf k${k} wv${wv}`, rrf(k, wv));
if (grid.includes("vecwin"))
  for (const vw of [0.25, 0.5, 1])
    for (const a of [0.5, 0.6, 0.7]) run(`window vector vw${vw} α${a}`, windowVec(a, 0.7, 0.5, vw));
if (grid.includes("rocchio"))
  for (const m of [3, 10])
    for (const beta of [0.5, 1.5])
      for (const nb of [0, 1]) run(`rocchio m${m} β${beta} nb${nb}`, rocchio(m, beta, 0.6, 0.7, 0.5, nb));
if (grid.includes("rm3"))
  for (const m of [3, 10])
    for (const t of [10]) for (const g of [0.2, 0.5]) run(`rm3 m${m} t${t} γ${g}`, rm3(m, t, g));
if (grid.includes("win")) {
  for (const [n, decay, w] of [
    [2, 1, 0.5],
    [2, 0.5, 0.5],
    [3, 0.5, 0.5],
    [2, 0.5, 1],
  ] as const)
    run(`bm25f ±${n} decay${decay} w${w}`, winVar({ n, decay, w }));
  for (const [nn, mode, share] of [
    [1, "sum", 0.7],
    [2, "max", 0.7],
    [2, "sum", 0.7],
    [2, "sum", 1],
  ] as const)
    run(`lift ±${nn} ${mode} share${share}`, winVar({ nn, mode, share, ndecay: 0.5 }));
  for (const gap of [120, 86400]) run(`gap ${gap}s`, winVar({ gap }));
}
if (grid.includes("wide"))
  for (const n of (process.env.NS ?? "3,4,6").split(",").map(Number))
    for (const decay of (process.env.DECAYS ?? "0.5,0.7").split(",").map(Number))
      for (const w of (process.env.WS ?? "0.5,1").split(",").map(Number))
        run(`bm25f ±${n} decay${decay} w${w}`, winVar({ n, decay, w }));
if (grid.includes("combo"))
  for (const [n, decay] of [
    [3, 0.5],
    [4, 0.7],
  ] as const)
    for (const sigma of [0.2, 0.4])
      run(
        `bm25f ±${n} decay${decay} + session bm25 σ${sigma}`,
        session("bm25", sigma, NEIGHBOUR_GAP_S, winVar({ n, decay })),
      );
if (grid.includes("refit"))
  for (const n of (process.env.NS ?? "4,6").split(",").map(Number))
    for (const a of [0.5, 0.6, 0.7])
      for (const share of [0.5, 0.7, 0.9])
        if (!(a === 0.6 && share === 0.7))
          run(`bm25f ±${n} decay0.7 α${a} share${share}`, winVar({ n, decay: 0.7, a, share }));
if (grid.includes("combo2")) {
  for (const vw of [0.25, 0.5])
    run(`bm25f ±5 decay0.7 + window vector vw${vw}`, windowVec(0.6, 0.7, 0.5, vw, 5, 0.7));
  for (const sigma of [0.2, 0.4])
    run(
      `bm25f ±5 decay0.7 + session bm25 σ${sigma}`,
      session("bm25", sigma, NEIGHBOUR_GAP_S, winVar({ n: 5, decay: 0.7 })),
    );
}
if (grid.includes("combo3"))
  for (const m of [3, 10])
    run(`bm25f ±5 decay0.7 + rm3 m${m} t10 γ0.2`, rm3(m, 10, 0.2, 0.6, 0.7, 0.5, true, 5));
if (grid.includes("asym"))
  for (const [b, a] of [
    [0.5, 0.5],
    [0.5, 0.25],
    [0.25, 0.5],
    [0.7, 0.35],
  ] as const)
    run(`bm25f ±5 decay0.7, earlier ${b}, later ${a}`, asym(b, a));
if (grid.includes("nms")) {
  const base = winVar({ n: 5, decay: 0.7 });
  for (const greedy of [false, true])
    for (const k of (process.env.NMS_K ?? "1,2,5").split(",").map(Number))
      for (const mu of (process.env.NMS_MU ?? "0.2,0.4").split(",").map(Number))
        for (const decay of (process.env.NMS_DECAY ?? "0.5,1").split(",").map(Number))
          run(
            `±5 + nms${greedy ? " greedy" : ""} k${k} μ${mu} decay${decay}`,
            nms(base, k, mu, decay, greedy),
          );
}
if (grid.includes("lead"))
  for (const own of [false, true])
    for (const L of (process.env.LEAD_L ?? "1,2,3").split(",").map(Number))
      for (const beta of (process.env.LEAD_B ?? "0.5,1,2").split(",").map(Number))
        run(`±5 + leading ${L} words ×(1+${beta})${own ? " own field only" : ""}`, lead(L, beta, own));
if (grid.includes("dbsf"))
  for (const how of ["dbsf", "z", "mixed"] as const)
    for (const a of (process.env.DBSF_A ?? "0.4,0.5,0.6,0.7").split(",").map(Number))
      run(`±5, fusion ${how} α${a}`, fusedBy(how, a));
if (grid.includes("prox"))
  for (const span of (process.env.PROX_SPAN ?? "2,4,8").split(",").map(Number))
    for (const gamma of (process.env.PROX_G ?? "0.25,0.5,1").split(",").map(Number))
      for (const win of (process.env.PROX_WIN ?? "0").split(",").map(Number))
        run(
          `±5 + proximity span${span} γ${gamma}${win ? " windowed" : ""}`,
          proximity(span, gamma, { n: 5, decay: 0.7 }, win === 1),
        );
if (grid.includes("centre"))
  for (const how of ["centre", "form", "both"] as const)
    for (const a of (process.env.CENTRE_A ?? "0.6").split(",").map(Number))
      run(`±5, vectors ${how} α${a}`, centred(how, { n: 5, decay: 0.7, a }));
if (grid.includes("form"))
  for (const [dn, asks] of [
    ["ends with ?", (t: string) => /\?"?( and shared .*)?$/.test(t.trim())],
    ["holds a ?", (t: string) => t.includes("?")],
    ["last character ?", (t: string) => /\?["'”’)\]]*$/.test(t.trim())],
  ] as const)
    for (const lambda of (process.env.FORM_L ?? "0.5,1").split(",").map(Number))
      for (const scope of (process.env.FORM_SCOPE ?? "stream").split(",") as ("stream" | "candidates")[])
        for (const qo of (process.env.FORM_QO ?? "0").split(",").map(Number))
          run(
            `±5, form (${dn}) projected out ×${lambda} over the ${scope}${qo ? ", query only" : ""}`,
            centred("form", { n: 5, decay: 0.7 }, lambda, asks, scope, qo === 1),
          );
if (grid.includes("form-contextual")) {
  // The default's relevance (contextual: hybrid + the better ±1 neighbour, α 0.6), with and without the form.
  run("contextual α.6 + time", winVar({ n: 0 }));
  run(
    "contextual α.6 + time, form projected out",
    centred("form", { n: 0 }, 1, (t) => /[?？]["'”’)\]]*\s*$/u.test(t.trim())),
  );
}
if (grid.includes("rerank"))
  for (const R of [50])
    for (const lam of [0.2, 0.5])
      for (const n of [1, 2]) run(`rerank top${R} λ${lam} ±${n}`, rerank(R, lam, n));
if (grid.includes("session"))
  for (const how of ["max", "top3", "bm25", "cos"] as const)
    for (const sigma of [0.15, 0.4]) run(`session ${how} σ${sigma}`, session(how, sigma));
printTable(rows);
// Paired against the shipped windowed (±5, decay 0.7): questions whose recall@10 rose / fell, per half.
const shipped = perQuestion.get("bm25f ±5 decay0.7 w0.5");
if (shipped) {
  const half = split(
    qs.map((q, i) => ({ q, i })),
    (x) => x.q.conv,
  );
  for (const [name, r] of perQuestion) {
    if (r === shipped) continue;
    const count = (xs: { i: number }[]) =>
      `${xs.filter(({ i }) => (r[i] as number) > (shipped[i] as number)).length} up / ${xs.filter(({ i }) => (r[i] as number) < (shipped[i] as number)).length} down`;
    console.log(`${name}: tune ${count(half.tune)}, held out ${count(half.heldOut)}`);
  }
}
process.exit(0);
