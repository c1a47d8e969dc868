/**
 * Task similarity for consolidation: cosine of the embeddings of two outcomes' task texts.
 * With use-lite-512 the same task in other words scores well above different tasks of one task
 * type; `DEFAULT_SIMILARITY` sits between them (docs/adr/0018).
 */
export const DEFAULT_SIMILARITY = 0.65;

/** Cosine similarity; 0 for a zero vector or vectors of different lengths. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
