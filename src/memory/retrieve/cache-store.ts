/**
 * The result cache's store (docs/adr/0043-result-cache.md): identical retrieves of an agent within a
 * TTL are answered from this process's memory while the agent's generation token (agent_generations,
 * changed by triggers on every write that could change an answer) is the one they were computed
 * under. Correct across processes: a write through any process or worker changes the token. Holds
 * answers as `object`: only retrieve.ts stores and reads them (and importing its types here would
 * close a cycle through deps.ts).
 */
export type RetrieveCacheConfig = {
  /** How long an answer may be reused (the deployment default; an agent's setting overrides); 0 = off. */
  ttlMs: number;
  /** Answers kept per process, least recently used first out. */
  maxEntries: number;
};

type Entry = { generation: string; at: number; result: object };

export type CacheOutcome = "hit" | "miss" | "bypass";

export interface RetrieveCache {
  readonly config: RetrieveCacheConfig;
  get(key: string, generation: string, now: Date, ttlMs: number): { result: object; ageMs: number } | null;
  set(key: string, generation: string, now: Date, result: object): void;
  /** Counted per retrieve (the metric `memstream_retrieve_cache_total{result}`). */
  count(outcome: CacheOutcome): void;
  readonly size: number;
}

export function createRetrieveCache(
  config: RetrieveCacheConfig,
  onCount: (outcome: CacheOutcome) => void = () => {},
): RetrieveCache {
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recently used.
  const entries = new Map<string, Entry>();
  return {
    config,
    get(key, generation, now, ttlMs) {
      const e = entries.get(key);
      if (!e) return null;
      const ageMs = now.getTime() - e.at;
      if (e.generation !== generation || ageMs > ttlMs || ageMs < 0) {
        entries.delete(key);
        return null;
      }
      entries.delete(key);
      entries.set(key, e);
      return { result: e.result, ageMs };
    },
    set(key, generation, now, result) {
      entries.delete(key);
      entries.set(key, { generation, at: now.getTime(), result });
      while (entries.size > config.maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
    count: onCount,
    get size() {
      return entries.size;
    },
  };
}
