import type { Embedder } from "./types";

/**
 * Wraps an embedder with a small LRU cache keyed by text. With the offline model both the
 * embedding job and the offline importance scorer embed the same new descriptions moments apart
 * (and agents repeat queries); the cache makes the second one free. A text already being embedded
 * by another call joins that call instead of embedding again: the two jobs of a new memory run at
 * the same time, so without it the model embedded ~1.5 texts per memory of a backlog (ADR 0024).
 * Vectors are immutable here.
 */
export function withEmbeddingCache(inner: Embedder, capacity = 2048): Embedder & { hits(): number } {
  const cache = new Map<string, number[]>();
  const inflight = new Map<string, Promise<number[]>>();
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
      // What this call has (read now: a concurrent call may evict it while this one waits), what it
      // joins, and what it embeds itself.
      const have = new Map<string, number[]>();
      const pending = new Map<string, Promise<number[]>>();
      const missing: string[] = [];
      for (const t of new Set(texts)) {
        const v = cache.get(t);
        const shared = inflight.get(t);
        if (v) have.set(t, v);
        else if (shared) pending.set(t, shared);
        else missing.push(t);
      }
      hits += texts.length - missing.length;
      if (missing.length > 0) {
        const batch = inner.embed(missing);
        missing.forEach((t, i) => {
          const one = batch.then((vectors) => {
            const v = vectors[i];
            if (!v) throw new Error("embedder returned fewer vectors than texts");
            return v;
          });
          // Its failure reaches the callers through `pending`; this only keeps it from being unhandled.
          one.catch(() => {});
          pending.set(t, one);
          inflight.set(t, one);
        });
        const settled = () => {
          for (const t of missing) if (inflight.get(t) === pending.get(t)) inflight.delete(t);
        };
        batch.then(settled, settled);
      }
      for (const [t, p] of pending) have.set(t, await p);
      const out = texts.map((t) => {
        const v = have.get(t);
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
