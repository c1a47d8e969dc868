/** Helpers shared by the embedders: input guards and batch splitting. */

/**
 * What an empty or whitespace-only text is embedded as. Embedders must not throw on empty text
 * (the USE model does, and OpenAI rejects empty input), and a zero vector would make cosine
 * similarity undefined, so such texts get the vector of this neutral word instead. All empty
 * texts therefore share one vector; retrieval treats them as "about nothing in particular".
 */
export const EMPTY_TEXT_PLACEHOLDER = "empty";

/** Replaces empty or whitespace-only texts with `EMPTY_TEXT_PLACEHOLDER`; other texts pass unchanged. */
export function guardEmpty(texts: readonly string[]): string[] {
  return texts.map((t) => (t.trim() === "" ? EMPTY_TEXT_PLACEHOLDER : t));
}

/** Splits `items` into consecutive chunks of at most `size` (size ≥ 1), keeping order. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError(`batch size must be a positive integer, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
