/**
 * Duplicates take one place in the top k: five identical "created tag v1.2.0"
 * observations of one afternoon are one fact, not five answers. Two memories are duplicates when
 * they are of the same kind and their descriptions are equal once case, whitespace, punctuation
 * and symbols are ignored (Unicode NFKC). Digits and words count: "v1.2.0" and "v1.3.0" are two
 * facts, and two versions of a fact ("Alice lives in Paris" / "… in Berlin") are never folded:
 * which one is current is supersession's job (ranking/versions.ts). No vector similarity is used:
 * versions of a fact are as similar as rephrasings (docs/adr/0030).
 *
 * The statement ranks the best `poolSize(k)` exactly (any plan); the best-ranked memory of each
 * group stands for it, in the statement's order, and counts the others it folds (`duplicates`).
 * Done on the statement's rows, in the same round trip: no memory outside them is read.
 */

/** Memories ranked beyond k so that folded duplicates leave room for k distinct ones. */
export const DUPLICATE_POOL = 50;

/** How many memories the statement ranks for a top k with duplicates collapsed. */
export const poolSize = (k: number, extra = DUPLICATE_POOL) => k + extra;

/** What makes two memories duplicates: the kind and the description without case, spacing or punctuation. */
export function duplicateKey(kind: string, description: string): string {
  const text = description
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s\p{P}\p{S}]+/gu, " ")
    .trim();
  return `${kind}\u0000${text}`;
}

/**
 * The pool for the next round when `distinct` memories were found among `pool` rows and k are
 * wanted: grown by the share of distinct memories seen (so one more round usually suffices: a
 * stream whose best are 36 copies each of a few memories goes 60 → ~900, not 60 → 120 → 240 →
 * …), at least doubled.
 */
export function nextPool(pool: number, distinct: number, k: number): number {
  return Math.max(2 * pool, Math.ceil((1.5 * k * pool) / Math.max(distinct, 1)));
}

export type Collapsed<R> = {
  /** The best of each group, in the given order, at most k; `duplicates`: the others folded into it. */
  rows: (R & { duplicates: number })[];
  /** How many distinct memories `ranked` held. */
  distinct: number;
  /**
   * Whether these are the top k distinct memories of the whole candidate set: true when k were
   * found, or when `ranked` held every candidate (fewer rows than the pool).
   */
  complete: boolean;
};

/**
 * Folds duplicates among `ranked` (best first, at most `pool` rows, the statement's top `pool`)
 * and keeps the first k representatives. A duplicate ranked after the k-th representative is
 * still counted in its group's `duplicates` (it was ranked, so it is known).
 */
export function collapseDuplicates<R extends { kind: string; description: string }>(
  ranked: R[],
  k: number,
  pool: number,
): Collapsed<R> {
  const groups = new Map<string, R & { duplicates: number }>();
  const kept: (R & { duplicates: number })[] = [];
  for (const row of ranked) {
    const key = duplicateKey(row.kind, row.description);
    const first = groups.get(key);
    if (first) {
      first.duplicates += 1;
      continue;
    }
    const rep = { ...row, duplicates: 0 };
    groups.set(key, rep);
    kept.push(rep);
  }
  return {
    rows: kept.slice(0, k),
    distinct: kept.length,
    complete: kept.length >= k || ranked.length < pool,
  };
}
