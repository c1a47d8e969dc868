import type { Db } from "../db/client";
import { afterCommit } from "./after-commit";
import type { MemoryDeps } from "./deps";

/** The handle inside `db.transaction(...)`. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Runs `fn` in ONE transaction with memory deps bound to it. Domain verbs called inside
 * (createMemories...) announce background work as they go; inside a transaction that would be
 * before commit (a job could look for rows not yet visible), so every announcement is held and
 * made after the commit, and dropped on rollback (after-commit.ts).
 */
export async function inMemoryTransaction<T>(
  deps: MemoryDeps,
  fn: (memory: MemoryDeps & { db: Tx }, tx: Tx) => Promise<T>,
): Promise<T> {
  const held = afterCommit(deps.announce);
  const result = await deps.db.transaction((tx) => fn({ ...deps, announce: held.announce, db: tx }, tx));
  await held.flush();
  return result;
}
