import type { Db } from "../db/client";
import type { MemoryDeps, PendingWork } from "./deps";

/** The handle inside `db.transaction(...)`. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Runs `fn` in ONE transaction with memory deps bound to it. Domain verbs called inside
 * (createMemories...) announce enrichment work and new importance as they go; inside a
 * transaction that would be before commit (a worker could look for rows not yet visible), so
 * announcements are held and made after the commit, and dropped on rollback.
 */
export async function inMemoryTransaction<T>(
  deps: MemoryDeps,
  fn: (memory: MemoryDeps & { db: Tx }, tx: Tx) => Promise<T>,
): Promise<T> {
  const pending: PendingWork[] = [];
  const agents = new Set<string>();
  const result = await deps.db.transaction((tx) =>
    fn(
      {
        ...deps,
        db: tx,
        enrichment: { pending: async (items) => void pending.push(...items) },
        reflection: { importanceAdded: async (agentId) => void agents.add(agentId) },
      },
      tx,
    ),
  );
  if (pending.length > 0) await deps.enrichment.pending(pending);
  for (const agentId of agents) await deps.reflection.importanceAdded(agentId);
  return result;
}
