import { eq, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { agentSettings, documents, reflectionRuns, retrievalLog } from "../../db/schema";
import type { MemoryDeps } from "../deps";
import { lockAgentExclusive } from "./guard";

/**
 * Erases an agent's whole stream (memories, vectors, outcomes, lessons, reflections, runs,
 * settings, documents, retrieval log) in one transaction, and leaves a tombstone: the agent's epoch goes up, so
 * work that began before (a queued import or delivery, a reflection waiting on its LLM, a
 * retention run) writes nothing after it (docs/adr/0027). The agent id stays usable: a write
 * after the erase starts the next epoch's stream.
 *
 * Lock order (no deadlock with retrieve's touch or retention): the agent's lock first, then the
 * memories in id order (`COLLATE "C"`, as the touch and retention lock them), then the delete.
 */
export async function eraseAgent(
  deps: Pick<MemoryDeps, "db" | "clock">,
  agentId: string,
): Promise<{ deleted: number }> {
  return deps.db.transaction(async (tx) => {
    await lockAgentExclusive(tx, agentId);
    await tx.execute(sql`
      INSERT INTO agent_erasures (agent_id, epoch, seq, erased_at)
      VALUES (${agentId}, 1, nextval('agent_erasures_seq'), ${deps.clock.now().toISOString()}::timestamptz)
      ON CONFLICT (agent_id) DO UPDATE
        SET epoch = agent_erasures.epoch + 1, seq = excluded.seq, erased_at = excluded.erased_at`);
    const [gone] = await queryRows<{ n: number }>(
      tx,
      sql`WITH locked AS (
            SELECT id FROM memories WHERE agent_id = ${agentId} ORDER BY id COLLATE "C" FOR UPDATE
          ),
          gone AS (
            DELETE FROM memories m USING locked WHERE m.agent_id = ${agentId} AND m.id = locked.id
            RETURNING 1
          )
          SELECT count(*)::int AS n FROM gone`,
    );
    await tx.delete(reflectionRuns).where(eq(reflectionRuns.agentId, agentId));
    await tx.delete(agentSettings).where(eq(agentSettings.agentId, agentId));
    await tx.delete(documents).where(eq(documents.agentId, agentId));
    await tx.delete(retrievalLog).where(eq(retrievalLog.agentId, agentId));
    return { deleted: Number(gone?.n ?? 0) };
  });
}
