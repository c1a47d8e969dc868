import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { Conflict } from "../../lib/errors";

/**
 * What a piece of work had seen of erasures when it began (docs/adr/0027): the agent's `epoch`
 * (work that reads the agent's stream and writes back to it: reflection, consolidation, retention,
 * a document import) or the global erase `horizon` (a GitHub delivery or import, created before it
 * knows every agent it will route to). An erase after that point makes the work's writes void.
 */
export type WrittenSince = { epoch: number } | { horizon: number };

/** The agent was erased after the work began; it must end without writing (maps to 409). */
export class AgentErased extends Conflict {
  constructor(readonly agentId: string) {
    super(`agent ${agentId} was erased while this work was in progress; nothing was written`, { agentId });
  }
}

type Execute = Pick<Db, "execute">;

/** The agent-level lock: erase takes it exclusively, guarded writers share it (held to commit). */
const lockKey = (agentId: string) => sql`hashtextextended(${`memstream.agent:${agentId}`}, 0)`;

/** Takes the agent's lock exclusively for the rest of the transaction (erase only). */
export async function lockAgentExclusive(tx: Execute, agentId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${lockKey(agentId)})`);
}

/** The agent's erase count (0 = never erased): read before the work reads the stream. */
export async function agentEpoch(db: Execute, agentId: string): Promise<number> {
  const [row] = await queryRows<{ epoch: number }>(
    db,
    sql`SELECT epoch FROM agent_erasures WHERE agent_id = ${agentId}`,
  );
  return row ? Number(row.epoch) : 0;
}

/**
 * The highest erase position committed now (0 = none): recorded by a source when it arrives. Read
 * as a statement of its own before the source's row is inserted with it as a value (Citus routes
 * no subquery inside INSERT … VALUES, docs/adr/0011); an erase committing in between counts as
 * after the source, which then writes nothing to that agent (the conservative side).
 */
export async function currentHorizon(db: Execute): Promise<number> {
  const [row] = await queryRows<{ h: number }>(
    db,
    sql`SELECT coalesce(max(seq), 0) AS h FROM agent_erasures`,
  );
  return Number(row?.h ?? 0);
}

/**
 * Inside the write's transaction: shares the agent's lock (an erase in flight is waited for, and
 * none starts until this transaction ends), then tells whether the agent was erased since `since`.
 * Two statements on purpose: the tombstone is read after the lock is granted, with a snapshot
 * that includes an erase that just committed (one statement would read the snapshot from before).
 */
export async function erasedSince(tx: Execute, agentId: string, since: WrittenSince): Promise<boolean> {
  await lockAgentShared(tx, agentId);
  return erasedSinceUnderLock(tx, agentId, since);
}

/**
 * Shares the agent's lock for the rest of the transaction: an erase in flight is waited for, and
 * none starts until the transaction ends. Statements sent after it see any erase that committed.
 */
export async function lockAgentShared(tx: Execute, agentId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${lockKey(agentId)})`);
}

/** `erasedSince`'s tombstone read alone, for a transaction that already took `lockAgentShared`. */
export async function erasedSinceUnderLock(
  tx: Execute,
  agentId: string,
  since: WrittenSince,
): Promise<boolean> {
  const [row] = await queryRows<{ epoch: number; seq: number }>(
    tx,
    sql`SELECT epoch, seq FROM agent_erasures WHERE agent_id = ${agentId}`,
  );
  if (!row) return false;
  return "epoch" in since ? Number(row.epoch) !== since.epoch : Number(row.seq) > since.horizon;
}

/** `erasedSince`, throwing `AgentErased` (rolls the transaction back) when it was. */
export async function assertNotErased(tx: Execute, agentId: string, since: WrittenSince): Promise<void> {
  if (await erasedSince(tx, agentId, since)) throw new AgentErased(agentId);
}
