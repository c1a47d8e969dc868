import { and, eq } from "drizzle-orm";
import { memories } from "../db/schema";
import { NotFound } from "../lib/errors";
import type { MemoryDeps } from "./deps";
import { releaseSuperseded } from "./supersede";

/**
 * Deletes one memory and its vectors (cascade). Enrichment jobs still queued for it find no
 * row and do nothing, so a deleted memory never comes back. The memories it had superseded are
 * current again (supersede.ts).
 */
export async function deleteMemory(deps: Pick<MemoryDeps, "db">, agentId: string, id: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const deleted = await tx
      .delete(memories)
      .where(and(eq(memories.agentId, agentId), eq(memories.id, id)))
      .returning({ id: memories.id });
    if (deleted.length === 0) throw new NotFound(`memory ${id} not found for agent ${agentId}`, { id });
    await releaseSuperseded(tx, agentId, [id]);
  });
}
