/**
 * An independent, deliberately naive implementation of the retrieval formula, written from the
 * README ("Retrieval": the candidate set, the formula, the rules for missing values, relevance
 * from words, time expressions, sections), to check every ranking statement against. It imports
 * nothing from src/: constants are the README's numbers, so a change in the service's formula
 * that the README does not make shows up as a disagreement.
 *
 * Words: the reference splits text on non-letters and drops a few English stop words; it does
 * not stem. Tests give it words that are their own English stem (checked against Postgres).
 */
export type RefMemory = {
  id: string;
  lastAccessedAt: string;
  importance: number | null;
  /** Vector of the query's model, or null when the memory has none. */
  vector: number[] | null;
  kind?: string;
  /** Default: lastAccessedAt. */
  createdAt?: string;
  description?: string;
  metadata?: Record<string, unknown>;
  /** The memory that replaced this one (README "supersession"), null or absent while current. */
  supersededBy?: string | null;
};

export type RefOptions = {
  now: string;
  decay: number;
  /** Seconds per unit of age the decay applies to; default 3600 (the paper's hour). */
  unitSeconds?: number;
  weights: { recency: number; importance: number; relevance: number };
  query: number[] | null;
  /** Default `vector`; the others read `text`. */
  relevance?: "vector" | "lexical" | "hybrid" | "contextual" | "windowed";
  text?: string;
  /** α of hybrid, contextual and windowed relevance (README: 0.6 unless set). */
  vectorShare?: number;
  filters?: { kinds?: string[]; since?: string; until?: string; metadata?: Record<string, unknown> };
  /** The [start, end) createdAt window a time expression named (already widened). */
  timeWindow?: { start: string; end: string } | null;
  /** README "scale floors": recency over at least 1 − decay^30, importance over at least 5 points. */
  scaleFloors?: boolean;
  /** README "versions": which versions the best 10 lift (needs a query vector). */
  lift?: "newer" | null;
  /**
   * README "recall as of a time": the retrieve's now; only memories created at or before it; a
   * memory's last access is its lastAccessedAt if not after it, else its createdAt.
   */
  asOf?: string | null;
};

export type RefHit = {
  id: string;
  score: number;
  scores: { recency: number; importance: number; relevance: number };
  /** The score a version lift added (0 without one). */
  lift: number;
};

// README: BM25 k1 1.2, b 0.75; contextual 0.7 × the better neighbour; windowed: the words of up to
// 5 neighbours either side (same conversation), the nearest × 0.5, each further one × 0.7;
// hybrid α 0.6 by default; recency floored at e^-600.
const K1 = 1.2;
const B = 0.75;
const CONTEXT = 0.7;
const NEIGHBOUR_FIELD = 0.5;
const NEIGHBOUR_FIELD_REACH = 5;
const NEIGHBOUR_FIELD_DECAY = 0.7;
const ALPHA = 0.6;
const FLOOR_EXPONENT = 600;
// README: scale floors (30 units of decay, 5 points); versions among the best 10, cosine ≥ 0.55.
const FLOOR_UNITS = 30;
const FLOOR_POINTS = 5;
const VERSION_TOP = 10;
const VERSION_SIMILARITY = 0.55;
// README: a superseded memory's replacement is sought at most 4 replacements along its chain.
const REPLACEMENT_HOPS = 4;
// README: a neighbour counts only when created within an hour (the same conversation).
const NEIGHBOUR_GAP_MS = 3_600_000;
const STOP_WORDS = new Set(["the", "and", "a", "of", "in", "is", "to", "it"]);
// README: windowed's cosine leaves out the question form, with at least 10 memories of each form;
// a memory asks when its text ends with ? or ？ (closing quotes and brackets aside).
const FORM_MIN = 10;
// README: the direction comes from the agent's 2,000 newest memories (createdAt, then id).
const FORM_SAMPLE = 2_000;
const ASKS = /[?？]["'”’)\]]*\s*$/u;
const PARALLEL = 1e-9;

export const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  });
  return dot / Math.sqrt(na * nb);
};

// Vectors are float4 in the database: a vector the README's formula stores (a unit vector, a
// mean, a difference) is rounded to float4, and an inner product of two is summed in float4.
const f4 = Math.fround;
const unit = (v: number[]) => {
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return n > 0 ? v.map((x) => f4(x / n)) : v.map(() => 0);
};
const dot4 = (a: number[], b: number[]) => a.reduce((s, x, i) => f4(s + f4(x * (b[i] ?? 0))), 0);
const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

/** README: the agent's question-form direction from its newest `sample` memories, or null. */
export function formOf(memories: RefMemory[], sample = FORM_SAMPLE): number[] | null {
  const units = [...memories]
    .sort((a, b) => compareCreated(b, a))
    .slice(0, sample)
    .flatMap((m) => (m.vector ? [{ asks: ASKS.test(m.description ?? ""), v: unit(m.vector) }] : []));
  const asks = units.filter((u) => u.asks);
  const others = units.filter((u) => !u.asks);
  if (asks.length < FORM_MIN || others.length < FORM_MIN) return null;
  const mean = (us: { v: number[] }[]) =>
    (us[0] as { v: number[] }).v.map((_, i) =>
      f4(us.reduce((s, u) => s + (u.v[i] as number), 0) / us.length),
    );
  const [a, b] = [mean(asks), mean(others)];
  return unit(a.map((x, i) => f4(x - (b[i] as number))));
}

/**
 * Min-max over the non-null values: null → `missing`, all equal → 0.5; with a floor, a spread
 * below it is scaled over the floor: (v − lo) / max(hi − lo, floor).
 */
const scaled = (values: (number | null)[], missing: number, floor = 0): number[] => {
  const present = values.filter((v): v is number => v !== null);
  const lo = Math.min(...present);
  const hi = Math.max(...present);
  const top = floor > 0 && hi > lo ? lo + Math.max(hi - lo, floor) : hi;
  return values.map((v) => (v === null ? missing : top > lo ? (v - lo) / (top - lo) : 0.5));
};

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w !== "" && !STOP_WORDS.has(w));

const contains = (have: unknown, want: unknown): boolean =>
  typeof want === "object" && want !== null
    ? typeof have === "object" &&
      have !== null &&
      Object.entries(want).every(([k, v]) => contains((have as Record<string, unknown>)[k], v))
    : have === want;

const createdOf = (m: RefMemory) => Date.parse(m.createdAt ?? m.lastAccessedAt);

/** The candidate set: kinds and filters, then the time window unless no candidate is inside it. */
export function referenceCandidates(memories: RefMemory[], o: RefOptions): RefMemory[] {
  const f = o.filters ?? {};
  const passing = memories.filter(
    (m) =>
      (!f.kinds || f.kinds.includes(m.kind ?? "observation")) &&
      (!f.since || createdOf(m) >= Date.parse(f.since)) &&
      (!f.until || createdOf(m) <= Date.parse(f.until)) &&
      (!o.asOf || createdOf(m) <= Date.parse(o.asOf)) &&
      (!f.metadata || contains(m.metadata ?? {}, f.metadata)),
  );
  const w = o.timeWindow;
  if (!w) return passing;
  const inside = passing.filter(
    (m) => createdOf(m) >= Date.parse(w.start) && createdOf(m) < Date.parse(w.end),
  );
  return inside.length > 0 ? inside : passing;
}

/** Okapi BM25 of the query's words over `docs` (each a word → frequency map and a length). */
function bm25(docs: { tf: Map<string, number>; dl: number }[], query: string[]): number[] {
  const n = docs.length;
  const avgdl = docs.reduce((s, d) => s + d.dl, 0) / n;
  const terms = [...new Set(query)];
  return docs.map((d) => {
    let s = 0;
    for (const t of terms) {
      const tf = d.tf.get(t) ?? 0;
      if (tf === 0) continue;
      const df = docs.filter((x) => (x.tf.get(t) ?? 0) > 0).length;
      s +=
        Math.log(1 + (n - df + 0.5) / (df + 0.5)) *
        ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * d.dl) / avgdl)));
    }
    return s;
  });
}

/** Raw relevance of each candidate (in the order given), null where a memory has none. */
function relevanceOf(cands: RefMemory[], o: RefOptions, memories: RefMemory[]): (number | null)[] {
  const kind = o.relevance ?? "vector";
  const plain = cands.map((m) => (o.query && m.vector ? cosine(m.vector, o.query) : null));
  const f = kind === "windowed" && o.query ? formOf(memories) : null;
  const qf = f && o.query ? dot4(o.query, f) / norm(o.query) : null;
  const cos =
    f === null || qf === null || 1 - qf * qf <= PARALLEL
      ? plain
      : plain.map((c, i) => {
          const v = (cands[i] as RefMemory).vector;
          if (c === null || v === null) return c;
          const cf = dot4(v, f) / norm(v);
          return 1 - cf * cf <= PARALLEL ? 0 : (c - qf * cf) / Math.sqrt((1 - qf * qf) * (1 - cf * cf));
        });
  if (kind === "vector") return cos;
  const q = words(o.text ?? "");
  const own = cands.map((m) => {
    const tf = new Map<string, number>();
    for (const w of words(m.description ?? "")) tf.set(w, (tf.get(w) ?? 0) + 1);
    return { tf, dl: tf.size };
  });
  if (kind === "lexical") return bm25(own, q);
  // Neighbours in the candidate set by createdAt (id breaks ties).
  const order = cands.map((_, i) => i).sort((a, b) => compareCreated(cands[a], cands[b]));
  const prev = new Map<number, number>();
  const next = new Map<number, number>();
  order.forEach((i, j) => {
    if (j > 0) prev.set(i, order[j - 1] as number);
    if (j < order.length - 1) next.set(i, order[j + 1] as number);
  });
  const neighbours = (i: number) =>
    [prev.get(i), next.get(i)].filter(
      (x): x is number =>
        x !== undefined &&
        Math.abs(createdOf(cands[x] as RefMemory) - createdOf(cands[i] as RefMemory)) <= NEIGHBOUR_GAP_MS,
    );
  // Windowed: the memories up to NEIGHBOUR_FIELD_REACH places away in createdAt order, reached
  // through neighbours each within the gap of the next (the same conversation).
  const field = (i: number) => {
    const out: { j: number; w: number }[] = [];
    const at = order.indexOf(i);
    for (const dir of [-1, 1]) {
      let from = i;
      for (let k = 1; k <= NEIGHBOUR_FIELD_REACH; k++) {
        const j = order[at + dir * k];
        if (j === undefined) break;
        if (
          Math.abs(createdOf(cands[j] as RefMemory) - createdOf(cands[from] as RefMemory)) > NEIGHBOUR_GAP_MS
        )
          break;
        out.push({ j, w: NEIGHBOUR_FIELD * NEIGHBOUR_FIELD_DECAY ** (k - 1) });
        from = j;
      }
    }
    return out;
  };
  const docs =
    kind === "windowed"
      ? own.map((d, i) => {
          const tf = new Map(d.tf);
          let dl = d.dl;
          for (const { j, w } of field(i)) {
            const nd = own[j] as (typeof own)[number];
            dl += w * nd.dl;
            for (const [t, x] of nd.tf) tf.set(t, (tf.get(t) ?? 0) + w * x);
          }
          return { tf, dl };
        })
      : own;
  const a = o.vectorShare ?? ALPHA;
  const c = scaled(cos, 0);
  const l = scaled(bm25(docs, q), 0);
  const hybrid = c.map((x, i) => a * x + (1 - a) * (l[i] as number));
  if (kind === "hybrid") return hybrid;
  return hybrid.map((h, i) => h + CONTEXT * Math.max(0, ...neighbours(i).map((j) => hybrid[j] as number)));
}

const compareCreated = (a: RefMemory | undefined, b: RefMemory | undefined) => {
  if (!a || !b) return 0;
  return createdOf(a) - createdOf(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
};

/** Scores every candidate; returns them best first (ties by id) with their scaled components. */
export function referenceRanking(memories: RefMemory[], o: RefOptions): RefHit[] {
  const cands = referenceCandidates(memories, o);
  if (cands.length === 0) return [];
  const now = Date.parse(o.asOf ?? o.now);
  const unitMs = (o.unitSeconds ?? 3_600) * 1_000;
  const cap = o.decay < 1 ? FLOOR_EXPONENT / -Math.log(o.decay) : Number.POSITIVE_INFINITY;
  const accessed = (m: RefMemory) => {
    const at = Date.parse(m.lastAccessedAt);
    return o.asOf && at > now ? createdOf(m) : at;
  };
  const rec = cands.map((m) => o.decay ** Math.min(Math.max((now - accessed(m)) / unitMs, 0), cap));
  const sRec = scaled(rec, 0, o.scaleFloors ? 1 - o.decay ** FLOOR_UNITS : 0);
  const sImp = scaled(
    cands.map((m) => m.importance),
    0.5,
    o.scaleFloors ? FLOOR_POINTS : 0,
  );
  const sRel = scaled(relevanceOf(cands, o, memories), 0);
  const hits = cands
    .map((m, i) => {
      const scores = {
        recency: sRec[i] as number,
        importance: sImp[i] as number,
        relevance: sRel[i] as number,
      };
      const score =
        o.weights.recency * scores.recency +
        o.weights.importance * scores.importance +
        o.weights.relevance * scores.relevance;
      return { id: m.id, score, scores, lift: 0 };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return o.lift && o.query ? lifted(hits, cands, o.lift, memories) : hits;
}

/**
 * Versions: among the best 10 (by score, ties by id), a memory whose vector is ≥ 0.55
 * cosine-similar to a better-scored one that is older takes the best such score (the newer
 * version rises). With `newer`, a superseded memory among the best 10 hands
 * that (lifted) score to its replacement: of the memories along its chain of replacements (at
 * most 4), the last one that is a candidate; the replacement takes the best score handed to it
 * if higher. Then all are ordered by score; equal scores: memories with such a replacement after
 * the others, then newest first.
 */
function lifted(hits: RefHit[], cands: RefMemory[], lift: "newer", memories: RefMemory[]): RefHit[] {
  const byId = new Map(cands.map((m) => [m.id, m]));
  const anyById = new Map(memories.map((m) => [m.id, m]));
  const best = hits.slice(0, VERSION_TOP);
  const raised = best.map((x) => {
    const mx = byId.get(x.id) as RefMemory;
    let score = x.score;
    for (const y of best) {
      const my = byId.get(y.id) as RefMemory;
      const later = createdOf(my) < createdOf(mx);
      if (
        y.score > x.score &&
        later &&
        mx.vector &&
        my.vector &&
        cosine(mx.vector, my.vector) >= VERSION_SIMILARITY
      )
        score = Math.max(score, y.score);
    }
    return { ...x, score, lift: score - x.score };
  });
  const all = [...raised, ...hits.slice(VERSION_TOP)];
  const superseded = new Set<string>();
  if (lift === "newer") {
    const handed = new Map<string, number>();
    for (const x of raised) {
      let replacement: string | undefined;
      let next = (byId.get(x.id) as RefMemory).supersededBy;
      for (let hop = 0; hop < REPLACEMENT_HOPS && next; hop++) {
        if (byId.has(next)) replacement = next;
        next = anyById.get(next)?.supersededBy;
      }
      if (!replacement) continue;
      superseded.add(x.id);
      handed.set(replacement, Math.max(handed.get(replacement) ?? Number.NEGATIVE_INFINITY, x.score));
    }
    for (const h of all) {
      const s = handed.get(h.id);
      if (s !== undefined && s > h.score) {
        h.lift += s - h.score;
        h.score = s;
      }
    }
  }
  return all.sort(
    (a, b) =>
      b.score - a.score ||
      Number(superseded.has(a.id)) - Number(superseded.has(b.id)) ||
      createdOf(byId.get(b.id) as RefMemory) - createdOf(byId.get(a.id) as RefMemory) ||
      (a.id < b.id ? -1 : 1),
  );
}

/**
 * Sections: the candidates are every memory of the sections' kinds (every kind when one section
 * has none), scored together; each memory goes to the section naming its kind, else to the one
 * without kinds; each section keeps its own top k.
 */
export function referenceSections(
  memories: RefMemory[],
  o: RefOptions,
  sections: { kinds: string[] | null; k: number }[],
): RefHit[][] {
  const rest = sections.findIndex((s) => s.kinds === null);
  const sectionOf = (m: RefMemory) => {
    const i = sections.findIndex((s) => s.kinds?.includes(m.kind ?? "observation"));
    return i >= 0 ? i : rest;
  };
  const kinds = rest >= 0 ? undefined : sections.flatMap((s) => s.kinds ?? []);
  const ranked = referenceRanking(memories, { ...o, filters: { ...o.filters, kinds } });
  const byId = new Map(memories.map((m) => [m.id, m]));
  return sections.map((s, i) =>
    ranked.filter((h) => sectionOf(byId.get(h.id) as RefMemory) === i).slice(0, s.k),
  );
}
