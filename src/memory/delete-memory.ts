import { and, eq } from "drizzle-orm";
import { memories } from "../db/schema";
import { NotFound } from "../lib/errors";
import type { MemoryDeps } from "./deps";

/**
 * Deletes one memory and its vectors (cascade). Enrichment jobs still queued for it find no
 * row and do nothing, so a deleted memory never comes back.
 */
export async function deleteMemory(deps: Pick<MemoryDeps, "db">, agentId: string, id: string): Promise<void> {
  const deleted = await deps.db
    .delete(memories)
    .where(and(eq(memories.agentId, agentId), eq(memories.id, id)))
    .returning({ id: memories.id });
  if (deleted.length === 0) throw new NotFound(`memory ${id} not found for agent ${agentId}`, { id });
}
