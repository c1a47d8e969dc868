import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import type { RetrieveInput, RetrieveResult } from "./retrieve";

/**
 * The result cache (docs/adr/0043-result-cache.md): identical retrieves of an agent within a TTL
 * are answered from this process's memory while the agent's generation token (agent_generations,
 * changed by triggers on every write that could change an answer) is the one they were computed
 * under. Correct across processes: a write through any process or worker changes the token.
 */
export type RetrieveCacheConfig = {
  /** How long an answer may be reused (the deployment default; an agent's setting overrides); 0 = off. */
  ttlMs: number;
  /** Answers kept per process, least recently used first out. */
  maxEntries: number;
};

type Entry = { generation: string; at: number; result: RetrieveResult };

export type CacheOutcome = "hit" | "miss" | "bypass";

export interface RetrieveCache {
  readonly config: RetrieveCacheConfig;
  get(
    key: string,
    generation: string,
    now: Date,
    ttlMs: number,
  ): { result: RetrieveResult; ageMs: number } | null;
  set(key: string, generation: string, now: Date, result: RetrieveResult): void;
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

/**
 * The cache key of a retrieve: the agent and every field of the request but `touch` (what a hit
 * does with it is its own step); null when the request must not be answered from a cache (it asks
 * to wait until everything written is searchable).
 */
export function cacheKey(agentId: string, input: RetrieveInput): string | null {
  if (input.waitSearchableMs) return null;
  const { touch: _touch, ...rest } = input;
  return createHash("sha256").update(agentId).update("\0").update(stableJson(rest)).digest("base64url");
}

/** JSON with object keys sorted, so two spellings of one request share a key. */
function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/**
 * The agent's generation token and its own cache TTL setting (one statement, primary-key reads);
 * generation null = no token (never written since a truncate): not answered from a cache.
 */
export async function cacheState(
  db: Pick<Db, "execute">,
  agentId: string,
): Promise<{ generation: string | null; ttlMs: number | null }> {
  const [row] = await queryRows<{ generation: string | null; ttl: number | string | null }>(
    db,
    sql`SELECT g.generation::text AS generation, s.retrieve_cache_ttl_ms AS ttl
      FROM (SELECT 1) one
      LEFT JOIN agent_generations g ON g.agent_id = ${agentId}
      LEFT JOIN agent_settings s ON s.agent_id = ${agentId}`,
  );
  return { generation: row?.generation ?? null, ttlMs: row?.ttl == null ? null : Number(row.ttl) };
}

/** Every process's cached answers for the agent stop matching (`DELETE …/cache`). */
export async function clearAgentCache(db: Pick<Db, "execute">, agentId: string): Promise<void> {
  await db.execute(
    sql`INSERT INTO agent_generations (agent_id, generation) VALUES (${agentId}, gen_random_uuid())
      ON CONFLICT (agent_id) DO UPDATE SET generation = excluded.generation`,
  );
}
