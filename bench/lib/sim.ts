/**
 * The service's ranking re-implemented in memory for exploration (bench/explore/tune-frontier.ts): each
 * stream is read once (vector, lexemes, times, importance), and BM25, cosine, hybrid, contextual
 * relevance and the weighted min-max score are computed in Node, so thousands of settings can be
 * scored in seconds. The bench checks these figures against the service's SQL before using them;
 * the choice is then confirmed through the API by `npm run eval:locomo`.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../src/db/client";
import { queryRows } from "../../src/db/client";
import {
  ASKS_PATTERN,
  BM25,
  CONTEXT_FIELD_DECAY,
  CONTEXT_FIELD_REACH,
  FORM_MIN,
  FORM_SAMPLE,
  NEIGHBOUR_GAP_S,
} from "../../src/memory/retrieve/ranking/relevance/kinds";
import { minMax } from "../../src/memory/retrieve/ranking/scale";
import { weightedSum } from "../../src/memory/retrieve/ranking/score";
import type { Embedder } from "../../src/providers/types";

export type Doc = {
  id: string;
  label: string;
  at: number;
  accessed: number;
  imp: number | null;
  tf: Map<string, number>;
  dl: number;
  vec: Float64Array | null;
  text: string;
  /** Each lexeme's first position in the text (1-based), where read. */
  first?: Map<string, number>;
  /** Each lexeme's positions in the text, where read. */
  positions?: Map<string, number[]>;
};

/** One stream (an agent), sorted by createdAt then id as the service's neighbour window is. */
export type Stream = { docs: Doc[] };

export type Question = {
  stream: string;
  text: string;
  category: string;
  conv: string;
  evidence: string[];
  now: number;
  vec: Float64Array;
  terms: string[];
};

/** Parses a tsvector's text form: `'lexem':1,3 'other':2` → lexeme → number of positions (≥ 1). */
export function parseTsv(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/'((?:[^']|'')*)'(?::([\d,A-D]+))?/g)) {
    const lexeme = (m[1] as string).replaceAll("''", "'");
    out.set(lexeme, m[2] ? m[2].split(",").length : 1);
  }
  return out;
}

/** Reads each agent's stream once, keyed by agent id. */
export async function readStreams(
  db: Db,
  agents: Iterable<string>,
  model: string,
): Promise<Map<string, Stream>> {
  const streams = new Map<string, Stream>();
  for (const agent of new Set(agents)) streams.set(agent, await readStream(db, agent, model));
  return streams;
}

/** Each text's lexemes as the service's query takes them (english, stop words dropped, stemmed), in order. */
export async function queryLexemes(db: Db, texts: string[]): Promise<string[][]> {
  const rows = await queryRows<{ i: number; t: string[] }>(
    db,
    sql`SELECT i::int AS i, tsvector_to_array(to_tsvector('english'::regconfig, x)) AS t
      FROM unnest(${`{${texts.map((x) => `"${x.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`}::text[]) WITH ORDINALITY AS u(x, i)`,
  );
  return rows.sort((a, b) => a.i - b.i).map((r) => r.t);
}

/**
 * Questions with their vector (of `embed`, else of `text`: an idea may embed another form of the
 * question) and lexemes (of `text`), `now` as epoch seconds; other fields are kept.
 */
export async function questionsOf<X extends { text: string; now: string; embed?: string }>(
  embedder: Embedder,
  db: Db,
  xs: X[],
): Promise<(Omit<X, "now" | "embed"> & { now: number; vec: Float64Array; terms: string[] })[]> {
  const vs = await embedder.embed(xs.map((x) => x.embed ?? x.text));
  const ts = await queryLexemes(
    db,
    xs.map((x) => x.text),
  );
  return xs.map(({ embed: _, now, ...x }, i) => ({
    ...x,
    now: Date.parse(now) / 1000,
    vec: Float64Array.from(vs[i] as number[]),
    terms: ts[i] as string[],
  }));
}

/** A tsvector's text form → each lexeme's first position. */
export function firstPositions(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/'((?:[^']|'')*)'(?::([\d,A-D]+))?/g))
    out.set((m[1] as string).replaceAll("''", "'"), m[2] ? Number.parseInt(m[2], 10) : 1);
  return out;
}

/** A tsvector's text form → each lexeme's positions. */
export function allPositions(text: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const m of text.matchAll(/'((?:[^']|'')*)'(?::([\d,A-D]+))?/g))
    out.set(
      (m[1] as string).replaceAll("''", "'"),
      m[2] ? m[2].split(",").map((x) => Number.parseInt(x, 10)) : [1],
    );
  return out;
}

/** Reads one agent's memories with their vectors of `model`. */
export async function readStream(db: Db, agentId: string, model: string): Promise<Stream> {
  const rows = await queryRows<{
    id: string;
    label: string;
    at: number;
    accessed: number;
    imp: number | null;
    tsv: string;
    vec: string | null;
    text: string;
  }>(
    db,
    sql`SELECT m.id, coalesce(m.metadata->>'dia_id', m.metadata->>'label', m.description) AS label,
        date_part('epoch', m.created_at) AS at, date_part('epoch', m.last_accessed_at) AS accessed,
        m.importance::float8 AS imp, m.description_tsv::text AS tsv, e.embedding::text AS vec, m.description AS text
      FROM memories m LEFT JOIN memory_embeddings e ON e.memory_id = m.id AND e.agent_id = m.agent_id AND e.model = ${model}
      WHERE m.agent_id = ${agentId}
      ORDER BY m.created_at, m.id COLLATE "C"`,
  );
  return {
    docs: rows.map((r) => {
      const tf = parseTsv(r.tsv);
      return {
        id: r.id,
        label: r.label,
        at: Number(r.at),
        accessed: Number(r.accessed),
        imp: r.imp,
        tf,
        dl: tf.size,
        vec: r.vec ? Float64Array.from(JSON.parse(r.vec) as number[]) : null,
        text: r.text,
        first: firstPositions(r.tsv),
        positions: allPositions(r.tsv),
      };
    }),
  };
}

// The service's scaling and weighted sum (src/memory/retrieve/ranking/), so a change there is simulated too.
export { minMax };

export function cosine(docs: Doc[], q: Float64Array): (number | null)[] {
  let qn = 0;
  for (const x of q) qn += x * x;
  return docs.map((d) => {
    if (!d.vec) return null;
    let dot = 0;
    let dn = 0;
    for (let i = 0; i < q.length; i++) {
      dot += (q[i] as number) * (d.vec[i] as number);
      dn += (d.vec[i] as number) * (d.vec[i] as number);
    }
    return dot / Math.sqrt(qn * dn);
  });
}

/** A vector scaled to unit length (a zero vector stays zero). */
export const unitVector = (v: Float64Array): Float64Array => {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  return v.map((x) => x / n);
};

const ASKS = new RegExp(ASKS_PATTERN, "u");
/** Whether a memory asks something (kinds.ts, ASKS_PATTERN). */
export const asks = (text: string): boolean => ASKS.test(text);

/**
 * The question-form direction of windowed relevance (kinds.ts, form.ts) over `sample`: the unit
 * vector from the mean unit vector of the docs that do not ask to that of those that ask; null
 * with fewer than `min` docs with a vector of either form.
 */
export function formDirection(sample: Doc[], asking = asks, min = FORM_MIN): Float64Array | null {
  const sums = [0, 1].map(() => null as Float64Array | null);
  const counts = [0, 0];
  for (const d of sample) {
    if (!d.vec) continue;
    const k = asking(d.text) ? 1 : 0;
    const u = unitVector(d.vec);
    const acc = sums[k] ?? new Float64Array(u.length);
    for (let i = 0; i < u.length; i++) acc[i] = (acc[i] as number) + (u[i] as number);
    sums[k] = acc;
    counts[k] = (counts[k] as number) + 1;
  }
  const [st, qs] = sums;
  if (!st || !qs || (counts[0] as number) < min || (counts[1] as number) < min) return null;
  return unitVector(qs.map((x, i) => x / (counts[1] as number) - (st[i] as number) / (counts[0] as number)));
}

/** The unit vector of `v` with λ × its component along the unit direction `f` taken out. */
export function withoutForm(v: Float64Array, f: Float64Array, lambda = 1): Float64Array {
  const u = unitVector(v);
  let dot = 0;
  for (let i = 0; i < u.length; i++) dot += (u[i] as number) * (f[i] as number);
  return u.map((x, i) => x - lambda * dot * (f[i] as number));
}

/**
 * Windowed relevance's cosine as the service computes it: the question form projected out of both
 * vectors, the direction from the stream's newest FORM_SAMPLE docs (`stream` in createdAt order);
 * the plain cosine without a direction.
 */
export function formCosine(docs: Doc[], stream: Doc[], q: Float64Array): (number | null)[] {
  const f = formDirection(stream.slice(-FORM_SAMPLE));
  if (!f) return cosine(docs, q);
  return cosine(
    docs.map((d) => ({ ...d, vec: d.vec ? withoutForm(d.vec, f) : null })),
    withoutForm(q, f),
  );
}

/** Okapi BM25 over the given docs as relevance.ts computes it; `terms` may carry weights (default 1). */
export function bm25(docs: Doc[], terms: Map<string, number>): number[] {
  const { k1, b } = BM25;
  const n = docs.length;
  const avgdl = docs.reduce((s, d) => s + d.dl, 0) / n;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of terms.keys()) if (d.tf.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
  return docs.map((d) => {
    let s = 0;
    for (const [t, w] of terms) {
      const tf = d.tf.get(t);
      if (!tf) continue;
      const f = df.get(t) as number;
      s +=
        w *
        Math.log(1 + (n - f + 0.5) / (f + 0.5)) *
        ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.dl) / avgdl)));
    }
    return s;
  });
}

/** α·cos' + (1 − α)·bm25' (not rescaled), as rel_fused in relevance.ts. */
export const fuse = (cos: (number | null)[], lex: number[], a: number): number[] => {
  const c = minMax(cos, 0);
  const l = minMax(lex, 0);
  return c.map((x, i) => a * x + (1 - a) * (l[i] as number));
};

/**
 * rel + share × max(neighbours' rel) over `n` docs either side in stream order (docs are sorted);
 * with `docs`, a neighbour counts only within NEIGHBOUR_GAP_S of the memory, as the service.
 */
export const withNeighbours = (rel: number[], share: number, n = 1, docs?: Doc[]): number[] =>
  rel.map((r, i) => {
    let best = 0;
    for (let d = -n; d <= n; d++)
      if (d !== 0 && i + d >= 0 && i + d < rel.length && near(docs, i, i + d))
        best = Math.max(best, rel[i + d] as number);
    return r + share * best;
  });

/** Whether docs i and j are neighbours in time (always, without docs). */
const near = (docs: Doc[] | undefined, i: number, j: number) =>
  !docs || Math.abs((docs[i] as Doc).at - (docs[j] as Doc).at) <= NEIGHBOUR_GAP_S;

export type Weights3 = [number, number, number];

/** The service's score: weighted sum of min-max scaled recency, importance, relevance. Returns ranked labels. */
export function rank(
  docs: Doc[],
  now: number,
  rel: (number | null)[],
  w: Weights3,
  decay: number,
  unit: number,
): string[] {
  const rec = minMax(
    docs.map((d) => decay ** Math.max((now - d.accessed) / unit, 0)),
    0,
  );
  const imp = minMax(
    docs.map((d) => d.imp),
    0.5,
  );
  const r = minMax(rel, 0);
  const weights = { recency: w[0], importance: w[1], relevance: w[2] };
  return docs
    .map((d, i) => ({
      label: d.label,
      id: d.id,
      s: weightedSum(weights, {
        recency: rec[i] as number,
        importance: imp[i] as number,
        relevance: r[i] as number,
      }),
    }))
    .sort((x, y) => y.s - x.s || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
    .map((x) => x.label);
}

/**
 * BM25F as relevance.ts computes windowed relevance's lexical part: the text of up to `reach`
 * neighbours either side of the same run (each within NEIGHBOUR_GAP_S of the next) as a second
 * field, the nearest at weight `w`, each place further × `decay` (term frequency and length =
 * own + Σ weight × neighbour's). Defaults: the service's (kinds.ts).
 */
export function bm25f(
  docs: Doc[],
  terms: Map<string, number>,
  w: number,
  reach = CONTEXT_FIELD_REACH,
  decay = CONTEXT_FIELD_DECAY,
): number[] {
  const win = docs.map((d, i) => {
    const tf = new Map(d.tf);
    let dl = d.dl;
    for (const dir of [-1, 1])
      for (let k = 1; k <= reach; k++) {
        const n = docs[i + dir * k];
        if (!n || Math.abs(n.at - (docs[i + dir * (k - 1)] as Doc).at) > NEIGHBOUR_GAP_S) break;
        const x = w * decay ** (k - 1);
        dl += x * n.dl;
        for (const [t, c] of n.tf) tf.set(t, (tf.get(t) ?? 0) + x * c);
      }
    return { ...d, tf, dl };
  });
  return bm25(win, terms);
}
