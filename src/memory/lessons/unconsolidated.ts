import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { outcomes } from "../../db/schema";

/**
 * Agents and task types with outcomes no consolidation has seen for longer than `olderThanMs`
 * (their job was lost with Redis or a restart): the sweep enqueues `outcomes.consolidate` for each.
 * Scans every agent's unconsolidated outcomes on purpose (a partial index keeps it small).
 */
export async function unconsolidatedTaskTypes(
  db: Db,
  opts: { now: Date; olderThanMs: number; limit: number },
): Promise<{ agentId: string; taskType: string | null }[]> {
  const before = new Date(opts.now.getTime() - opts.olderThanMs).toISOString();
  return queryRows<{ agentId: string; taskType: string | null }>(
    db,
    sql`SELECT DISTINCT ${outcomes.agentId} AS "agentId", ${outcomes.taskType} AS "taskType"
        FROM ${outcomes} WHERE ${outcomes.consolidatedAt} IS NULL AND ${outcomes.insertedAt} < ${before}::timestamptz
        LIMIT ${opts.limit}`,
  );
}
