/**
 * An independent, deliberately naive implementation of the retrieval formula, written from
 * the README's definition, to check the SQL against on streams small enough to reason about.
 */
export type RefMemory = {
  id: string;
  lastAccessedAt: string;
  importance: number | null;
  /** Vector of the query's model, or null when the memory has none. */
  vector: number[] | null;
};

export type RefOptions = {
  now: string;
  decay: number;
  /** Seconds per unit of age the decay applies to; default 3600 (the paper's hour). */
  unitSeconds?: number;
  weights: { recency: number; importance: number; relevance: number };
  query: number[] | null;
};

const cosine = (a: number[], b: number[]) => {
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

const scaler = (values: (number | null)[], missing: number) => {
  const present = values.filter((v): v is number => v !== null);
  const lo = Math.min(...present);
  const hi = Math.max(...present);
  return (v: number | null) => (v === null ? missing : hi > lo ? (v - lo) / (hi - lo) : 0.5);
};

/** Scores every memory; returns them best first with their scaled components. */
export function referenceRanking(memories: RefMemory[], o: RefOptions) {
  const now = Date.parse(o.now);
  const unitMs = (o.unitSeconds ?? 3_600) * 1_000;
  const rec = memories.map((m) => o.decay ** Math.max((now - Date.parse(m.lastAccessedAt)) / unitMs, 0));
  const imp = memories.map((m) => m.importance);
  const rel = memories.map((m) => (o.query && m.vector ? cosine(m.vector, o.query) : null));
  const sRec = scaler(rec, 0);
  const sImp = scaler(imp, 0.5);
  const sRel = scaler(rel, 0);
  return memories
    .map((m, i) => {
      const scores = {
        recency: sRec(rec[i] ?? null),
        importance: sImp(imp[i] ?? null),
        relevance: sRel(rel[i] ?? null),
      };
      const score =
        o.weights.recency * scores.recency +
        o.weights.importance * scores.importance +
        o.weights.relevance * scores.relevance;
      return { id: m.id, score, scores };
    })
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
