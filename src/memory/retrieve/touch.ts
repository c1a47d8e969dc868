import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { memories } from "../../db/schema";

/**
 * Marks memories as accessed at `now`. Never moves an access time backwards, so a retrieve
 * with a simulated `now` in the past cannot make memories look staler than they are.
 */
export async function touchMemories(
  db: Pick<Db, "update">,
  agentId: string,
  ids: string[],
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(memories)
    .set({ lastAccessedAt: sql`greatest(${memories.lastAccessedAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(memories.agentId, agentId), inArray(memories.id, ids)));
}
