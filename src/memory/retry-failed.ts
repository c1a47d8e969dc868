import { sql } from "drizzle-orm";
import { queryRows } from "../db/client";
import type { MemoryDeps } from "./deps";

export type RetryResult = { importance: number; embedding: number };

/**
 * Puts an agent's failed enrichment back to pending (clearing the error and the attempt count)
 * and announces it. Without `agentId`, every agent's (the CLI). A memory failed on both fields
 * is retried on both.
 */
export async function retryFailed(
  deps: Pick<MemoryDeps, "db" | "clock" | "enrichment">,
  agentId: string | null,
): Promise<RetryResult> {
  const scope = agentId === null ? sql`TRUE` : sql`agent_id = ${agentId}`;
  const rows = await queryRows<{ id: string; agentId: string; revision: number; imp: boolean; emb: boolean }>(
    deps.db,
    sql`WITH target AS (
          SELECT agent_id, id, importance_status = 'failed' AS imp, embedding_status = 'failed' AS emb
          FROM memories WHERE ${scope} AND (importance_status = 'failed' OR embedding_status = 'failed')
          FOR UPDATE
        )
        UPDATE memories m SET
          importance_status = CASE WHEN t.imp THEN 'pending' ELSE m.importance_status END,
          importance_error = CASE WHEN t.imp THEN NULL ELSE m.importance_error END,
          embedding_status = CASE WHEN t.emb THEN 'pending' ELSE m.embedding_status END,
          embedding_error = CASE WHEN t.emb THEN NULL ELSE m.embedding_error END,
          importance_claimed_by = NULL, importance_claimed_until = NULL,
          embedding_claimed_by = NULL, embedding_claimed_until = NULL,
          attempts = 0, updated_at = ${deps.clock.now().toISOString()}::timestamptz
        FROM target t WHERE m.agent_id = t.agent_id AND m.id = t.id
        RETURNING m.id, m.agent_id AS "agentId", m.revision, t.imp, t.emb`,
  );
  if (rows.length > 0) {
    await deps.enrichment.pending(
      rows.map((r) => ({ memoryId: r.id, agentId: r.agentId, revision: r.revision })),
    );
  }
  return {
    importance: rows.filter((r) => r.imp).length,
    embedding: rows.filter((r) => r.emb).length,
  };
}
