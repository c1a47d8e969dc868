/** The result cache's keys and its state in the database (docs/adr/0043-result-cache.md); the store is cache-store.ts. */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import type { RetrieveCache } from "./cache-store";

/**
 * The cache key of a retrieve: the agent and every field of the request but `touch` (what a hit
 * does with it is its own step); null when the request must not be answered from a cache (it asks
 * to wait until everything written is searchable).
 */
export function cacheKey(
  agentId: string,
  input: { touch?: boolean; waitSearchableMs?: number },
): string | null {
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
 * What the cache says of one retrieve, given the agent's token and TTL setting (read with its
 * state, agent-state.ts): an answer to give (`hit`), else where to keep the answer ranked now
 * (`store`); null when the cache is off for it. Counts each outcome.
 */
export function consultCache(
  cache: RetrieveCache | null,
  agentId: string,
  input: { touch?: boolean; waitSearchableMs?: number },
  state: { generation: string | null; ttlMs: number | null },
  now: Date,
): { hit: { result: object; ageMs: number } | null; store(result: object): void } | null {
  const key = cache ? cacheKey(agentId, input) : null;
  if (!cache || !key) return null;
  const ttlMs = state.ttlMs ?? cache.config.ttlMs;
  if (ttlMs <= 0) return null;
  const generation = state.generation;
  if (!generation) {
    cache.count("bypass");
    return null;
  }
  const hit = cache.get(key, generation, now, ttlMs);
  cache.count(hit ? "hit" : "miss");
  return { hit, store: (result) => cache.set(key, generation, now, result) };
}

/** Every process's cached answers for the agent stop matching (`DELETE …/cache`). */
export async function clearAgentCache(db: Pick<Db, "execute">, agentId: string): Promise<void> {
  await db.execute(
    sql`INSERT INTO agent_generations (agent_id, generation) VALUES (${agentId}, gen_random_uuid())
      ON CONFLICT (agent_id) DO UPDATE SET generation = excluded.generation`,
  );
}
