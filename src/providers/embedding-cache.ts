import type { Embedder } from "./types";

/**
 * Wraps an embedder with a small LRU cache keyed by text. With the offline model both the
 * embedding job and the offline importance scorer embed the same new descriptions moments apart
 * (and agents repeat queries); the cache makes the second one free. Vectors are immutable here.
 */
export function withEmbeddingCache(inner: Embedder, capacity = 2048): Embedder & { hits(): number } {
  const cache = new Map<string, number[]>();
  let hits = 0;
  return {
    get modelId() {
      return inner.modelId;
    },
    get dimensions() {
      return inner.dimensions;
    },
    get maxBatchSize() {
      return inner.maxBatchSize;
    },
    hits: () => hits,
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !cache.has(t)))];
      hits += texts.length - missing.length;
      const fresh = new Map<string, number[]>();
      if (missing.length > 0) {
        const vectors = await inner.embed(missing);
        missing.forEach((t, i) => {
          const v = vectors[i];
          if (v) fresh.set(t, v);
        });
      }
      const out = texts.map((t) => {
        const v = fresh.get(t) ?? cache.get(t);
        if (!v) throw new Error("embedder returned fewer vectors than texts");
        // Delete + set moves the key to the end of the Map's order: most recently used last.
        cache.delete(t);
        cache.set(t, v);
        return v;
      });
      evict(cache, capacity);
      return out;
    },
  };
}

/** Evicts the least recently used entries beyond `capacity` (Map iterates in insertion order). */
function evict(cache: Map<string, number[]>, capacity: number) {
  for (const key of cache.keys()) {
    if (cache.size <= capacity) return;
    cache.delete(key);
  }
}
