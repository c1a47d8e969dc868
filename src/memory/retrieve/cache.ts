/** The result cache's keys and its state in the database (docs/adr/0043-result-cache.md); the store is cache-store.ts. */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";

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
