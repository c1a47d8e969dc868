import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { afterKey, type Keyset, nextKeyset, type Page } from "../../db/keyset";
import { outcomes } from "../../db/schema";

type Due = { agentId: string; taskType: string | null };

/**
 * Agents and task types with outcomes no consolidation has seen for longer than `olderThanMs`
 * (their job was lost with Redis or a restart): the sweep enqueues `outcomes.consolidate` for each,
 * a page per run in (agent, task type) order after `after`. Scans every agent's unconsolidated
 * outcomes on purpose (a partial index keeps it small). A task type is never empty, so '' stands
 * for none in the cursor.
 */
export async function unconsolidatedTaskTypes(
  db: Db,
  opts: { now: Date; olderThanMs: number; limit: number; after?: Keyset },
): Promise<Page<Due>> {
  const before = new Date(opts.now.getTime() - opts.olderThanMs).toISOString();
  const type = sql`coalesce(${outcomes.taskType}, '')`;
  const rows = await queryRows<Due>(
    db,
    sql`SELECT ${outcomes.agentId} AS "agentId", ${outcomes.taskType} AS "taskType"
        FROM ${outcomes} WHERE ${outcomes.consolidatedAt} IS NULL AND ${outcomes.insertedAt} < ${before}::timestamptz
          ${afterKey(sql`${outcomes.agentId}`, type, opts.after, sql`text`)}
        GROUP BY ${outcomes.agentId}, ${outcomes.taskType} ORDER BY ${outcomes.agentId}, ${type} LIMIT ${opts.limit}`,
  );
  return { rows, next: nextKeyset(rows, opts.limit, (r) => ({ at: r.agentId, id: r.taskType ?? "" })) };
}
