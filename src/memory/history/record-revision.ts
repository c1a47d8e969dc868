import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";

/** The values a PATCH may replace, as the memory held them. */
export type Replaced = {
  description: string;
  importance: number | null;
  metadata: Record<string, unknown>;
};

/** The same JSON value whatever the key order (jsonb's own equality: keys unordered, arrays ordered). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]))
    );
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a);
    const ob = b as Record<string, unknown>;
    return (
      ka.length === Object.keys(ob).length &&
      ka.every((k) => k in ob && sameJson((a as Record<string, unknown>)[k], ob[k]))
    );
  }
  return false;
}

/**
 * Keeps `previous` as the memory's next revision (1, 2, …), in the caller's transaction. The caller
 * holds the memory's row lock (`FOR UPDATE`), so two PATCHes of one memory never take one number.
 */
export async function recordRevision(
  tx: Pick<Db, "execute">,
  agentId: string,
  memoryId: string,
  previous: Replaced,
  replacedAt: Date,
): Promise<void> {
  await tx.execute(sql`
    INSERT INTO memory_revisions (agent_id, memory_id, revision, description, importance, metadata, replaced_at)
    SELECT ${agentId}, ${memoryId}, coalesce(max(revision), 0) + 1, ${previous.description},
      ${previous.importance}::smallint, ${JSON.stringify(previous.metadata)}::jsonb, ${replacedAt.toISOString()}::timestamptz
    FROM memory_revisions WHERE agent_id = ${agentId} AND memory_id = ${memoryId}`);
}
