import { and, eq } from "drizzle-orm";
import { retryOnDeadlock } from "../db/retry-deadlock";
import { memories } from "../db/schema";
import { NotFound } from "../lib/errors";
import type { MemoryDeps } from "./deps";
import { type DerivedCounts, deleteDerived } from "./derived/delete-derived";
import { recorded } from "./events";

/**
 * Deletes one memory and its vectors (cascade). Enrichment jobs still queued for it find no
 * row and do nothing, so a deleted memory never comes back. The memories it had superseded are
 * current again (supersede.ts), and the reflections and lessons derived from it are deleted in
 * the same transaction (derived/delete-derived.ts), counted per kind in the answer.
 */
export async function deleteMemory(
  deps: Pick<MemoryDeps, "db"> & Partial<Pick<MemoryDeps, "announce">>,
  agentId: string,
  id: string,
): Promise<{ id: string; kind: string; derived: DerivedCounts }> {
  const out = await retryOnDeadlock(() =>
    deps.db.transaction(async (tx) => {
      const [deleted] = await tx
        .delete(memories)
        .where(and(eq(memories.agentId, agentId), eq(memories.id, id)))
        .returning({ id: memories.id, kind: memories.kind });
      if (!deleted) throw new NotFound(`memory ${id} not found for agent ${agentId}`, { id });
      return { id, kind: deleted.kind, derived: await deleteDerived(tx, agentId, [id]) };
    }),
  );
  await deps.announce?.(recorded([{ agentId }]));
  return out;
}
