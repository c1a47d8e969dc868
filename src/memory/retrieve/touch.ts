import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { memories } from "../../db/schema";

/**
 * Marks memories as accessed at `now` and returns their new access times (ISO 8601, ms). Never
 * moves an access time backwards, so a retrieve with a simulated `now` in the past cannot make
 * memories look staler than they are.
 */
export async function touchMemories(
  db: Pick<Db, "update">,
  agentId: string,
  ids: string[],
  now: Date,
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .update(memories)
    .set({ lastAccessedAt: sql`greatest(${memories.lastAccessedAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(memories.agentId, agentId), inArray(memories.id, ids)))
    .returning({ id: memories.id, lastAccessedAt: memories.lastAccessedAt });
  return new Map(rows.map((r) => [r.id, r.lastAccessedAt.toISOString()]));
}
