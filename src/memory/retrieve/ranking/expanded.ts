import type { ExpandedMemory, ScoredMemory } from "../../types";
import { CONTEXT_SHARE, HYBRID_VECTOR_SHARE, NEIGHBOUR_GAP_S } from "./relevance/kinds";

// How archived members expanded from summaries rank (docs/adr/0044): the default's contextual
// relevance, computed over the members expanded together, and their place beside ranked memories.

/** BM25's k1 and b, as the ranking's. */
const K1 = 1.2;
const B = 0.75;

/** An expanded member as its relevance needs it: its summary, time, cosine and English lexemes. */
export type ExpandedCandidate = {
  summaryId: string;
  createdAt: string;
  similarity: number | null;
  tsv: string;
};

const scaled = (xs: number[]) => {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return xs.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 0.5));
};

/**
 * Each member's relevance in [0, 1], scaled over the members expanded together: hybrid (α × cosine'
 * + (1 − α) × BM25', BM25 with N, df and the average length of these members; BM25 alone without
 * a cosine), then contextual as the default's: + CONTEXT_SHARE × the better of the previous and
 * the next member of the same summary within NEIGHBOUR_GAP_S. `query` is a plainto_tsquery text.
 */
export function expandedRelevance(members: ExpandedCandidate[], query: string): number[] {
  const cos = scaled(members.map((m) => Number(m.similarity ?? 0)));
  const lex = scaled(
    poolBm25(
      members.map((m) => m.tsv),
      query,
    ),
  );
  const hasVector = members.some((m) => m.similarity !== null);
  const hybrid = members.map((_, i) =>
    hasVector
      ? HYBRID_VECTOR_SHARE * (cos[i] as number) + (1 - HYBRID_VECTOR_SHARE) * (lex[i] as number)
      : (lex[i] as number),
  );
  const order = members
    .map((_, i) => i)
    .sort((a, b) => {
      const x = members[a] as ExpandedCandidate;
      const y = members[b] as ExpandedCandidate;
      return x.summaryId.localeCompare(y.summaryId) || x.createdAt.localeCompare(y.createdAt);
    });
  const near = (a: number, b: number | undefined) => {
    if (b === undefined) return 0;
    const x = members[a] as ExpandedCandidate;
    const y = members[b] as ExpandedCandidate;
    const gap = Math.abs(Date.parse(x.createdAt) - Date.parse(y.createdAt)) / 1000;
    return x.summaryId === y.summaryId && gap <= NEIGHBOUR_GAP_S ? (hybrid[b] as number) : 0;
  };
  const context = new Array<number>(members.length).fill(0);
  order.forEach((i, p) => {
    context[i] =
      (hybrid[i] as number) + CONTEXT_SHARE * Math.max(near(i, order[p - 1]), near(i, order[p + 1]));
  });
  return scaled(context);
}

/**
 * Okapi BM25 of each member for the query's lexemes over the members expanded together.
 * `tsvs` are to_tsvector texts ('word':1,4 …), `query` a plainto_tsquery text ('a' & 'b').
 */
function poolBm25(tsvs: string[], query: string): number[] {
  const terms = [...new Set([...query.matchAll(/'((?:[^']|'')+)'/g)].map((m) => m[1] as string))];
  if (terms.length === 0) return tsvs.map(() => 0);
  const docs = tsvs.map((t) => {
    const tf = new Map<string, number>();
    let length = 0;
    for (const m of t.matchAll(/'((?:[^']|'')+)':([0-9A-D,]+)/g)) {
      const n = (m[2] as string).split(",").length;
      tf.set(m[1] as string, n);
      length += n;
    }
    return { tf, length };
  });
  const avg = docs.reduce((a, d) => a + d.length, 0) / docs.length || 1;
  const idf = new Map(
    terms.map((t) => {
      const df = docs.filter((d) => d.tf.has(t)).length;
      return [t, Math.log(1 + (docs.length - df + 0.5) / (df + 0.5))];
    }),
  );
  return docs.map((d) =>
    terms.reduce((sum, t) => {
      const f = d.tf.get(t) ?? 0;
      return sum + ((idf.get(t) as number) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avg));
    }, 0),
  );
}

/** A member's score in a flattened answer: its summary's, times this share of its own relevance. */
export const MEMBER_RELEVANCE_SHARE = 0.5;

/**
 * The answer with each summary replaced by its expanded members: a member scores its summary's
 * score × (1 − s + s × its relevance), so members of a better summary and members closer to the
 * query come first; the top k of them and the other ranked memories, by score.
 */
export function flattened(
  memories: ScoredMemory[],
  members: Map<string, ExpandedMemory[]>,
  k: number,
): ScoredMemory[] {
  const s = MEMBER_RELEVANCE_SHARE;
  return memories
    .flatMap((m): ScoredMemory[] =>
      m.kind !== "summary"
        ? [m]
        : (members.get(m.id) ?? []).map(({ similarity, relevance, ...e }) => ({
            ...e,
            score: m.score * (1 - s + s * relevance),
            scores: { ...m.scores, relevance, similarity },
            duplicates: 0,
            expandedFrom: m.id,
          })),
    )
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}
