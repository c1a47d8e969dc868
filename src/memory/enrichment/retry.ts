import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { queryRows } from "../../db/client";
import { memories } from "../../db/schema";
import type { MemoryDeps } from "../deps";
import { FIELDS, target } from "./fields";

export type RetryResult = { importance: number; embedding: number };

const imp = FIELDS.importance;
const emb = FIELDS.embedding;

/**
 * Puts an agent's failed enrichment back to pending (clearing the error, claims and the attempt
 * count) and announces it. Without `agentId`, every agent's (the CLI). A memory failed on both
 * fields is retried on both.
 */
export async function retryFailed(
  deps: Pick<MemoryDeps, "db" | "clock" | "announce">,
  agentId: string | null,
): Promise<RetryResult> {
  const scope = agentId === null ? sql`TRUE` : sql`${memories.agentId} = ${agentId}`;
  /** `SET col = CASE WHEN t.<flag> THEN value ELSE col END`: only the failed field changes. */
  const ifFailed = (flag: "imp" | "emb", column: PgColumn, value: SQL) =>
    sql`${target(column)} = CASE WHEN t.${sql.raw(flag)} THEN ${value} ELSE ${column} END`;
  const rows = await queryRows<{ id: string; agentId: string; revision: number; imp: boolean; emb: boolean }>(
    deps.db,
    sql`WITH t AS (
          SELECT ${memories.agentId} AS agent_id, ${memories.id} AS id, ${imp.status} = 'failed' AS imp, ${emb.status} = 'failed' AS emb
          FROM ${memories} WHERE ${scope} AND (${imp.status} = 'failed' OR ${emb.status} = 'failed')
          FOR UPDATE
        )
        UPDATE ${memories} SET
          ${ifFailed("imp", imp.status, sql`'pending'`)}, ${ifFailed("imp", imp.error, sql`NULL`)},
          ${ifFailed("emb", emb.status, sql`'pending'`)}, ${ifFailed("emb", emb.error, sql`NULL`)},
          ${target(imp.claimedBy)} = NULL, ${target(imp.claimedUntil)} = NULL,
          ${target(emb.claimedBy)} = NULL, ${target(emb.claimedUntil)} = NULL,
          ${target(memories.attempts)} = 0,
          ${target(memories.updatedAt)} = ${deps.clock.now().toISOString()}::timestamptz
        FROM t WHERE ${memories.agentId} = t.agent_id AND ${memories.id} = t.id
        RETURNING ${memories.id} AS id, ${memories.agentId} AS "agentId", ${memories.revision} AS revision, t.imp, t.emb`,
  );
  if (rows.length > 0) {
    const items = rows.map((r) => ({ memoryId: r.id, agentId: r.agentId, revision: r.revision }));
    await deps.announce([{ kind: "memories.pending", items }]);
  }
  return {
    importance: rows.filter((r) => r.imp).length,
    embedding: rows.filter((r) => r.emb).length,
  };
}
