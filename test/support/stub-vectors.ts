import { createHash } from "node:crypto";

/** Default vector length of the stub's embeddings when the request names none. */
export const STUB_DIMENSIONS = 64;

/**
 * The stub's embedding of `text`: a hashed bag of lower-cased words, one bucket per word hash,
 * L2-normalized. Deterministic, and texts sharing words are similar, which is all tests need.
 * A text without words gets bucket 0, so no vector is all zeros.
 */
export function stubEmbedding(text: string, dimensions = STUB_DIMENSIONS): number[] {
  const v = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const w of words) {
    const h = createHash("sha256").update(w).digest();
    const bucket = h.readUInt32BE(0) % dimensions;
    // The sign bit spreads words over ±, so unrelated texts sit near 0 rather than all positive.
    v[bucket] = (v[bucket] ?? 0) + ((h[4] ?? 0) & 1 ? 1 : -1);
  }
  if (words.length === 0) v[0] = 1;
  const norm = Math.hypot(...v);
  return norm === 0 ? v.map((_, i) => (i === 0 ? 1 : 0)) : v.map((x) => x / norm);
}

/** The importance reply the stub gives by default: high for memories about failure or loss. */
export function stubImportanceReply(prompt: string): string {
  const memory = /Memory:(.*)/.exec(prompt)?.[1] ?? prompt;
  return /\b(failed|broke|broken|died|crashed|lost)\b/i.test(memory) ? "Rating: 8" : "Rating: 2";
}
