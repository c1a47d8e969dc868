import { retryOnDeadlock } from "../db/retry-deadlock";
import { NotFound } from "../lib/errors";
import { deleteRows } from "./delete-rows";
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
      // Either tier (docs/adr/0044); a summary takes the archived members it stood for.
      const gone = await deleteRows(tx, agentId, [id]);
      const deleted = gone.find((g) => g.id === id);
      if (!deleted) throw new NotFound(`memory ${id} not found for agent ${agentId}`, { id });
      const derived = await deleteDerived(
        tx,
        agentId,
        gone.map((g) => g.id),
      );
      const members = gone.length - 1;
      return { id, kind: deleted.kind, derived: members > 0 ? { ...derived, archived: members } : derived };
    }),
  );
  await deps.announce?.(recorded([{ agentId }]));
  return out;
}
