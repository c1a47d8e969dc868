import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { isoUtc } from "../../db/iso";

/**
 * Marks memories as accessed at `now` and returns their new access times (ISO 8601, ms). Never
 * moves an access time backwards, so a retrieve with a simulated `now` in the past cannot make
 * memories look staler than they are. Rows are locked in id order first: two concurrent
 * retrieves returning the same memories in different orders would otherwise deadlock.
 */
export async function touchMemories(
  db: Pick<Db, "execute">,
  agentId: string,
  ids: string[],
  now: Date,
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<{ id: string; at: string }>(
    db,
    sql`WITH locked AS (
          SELECT id FROM memories WHERE agent_id = ${agentId} AND id IN (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})
          ORDER BY id COLLATE "C" FOR UPDATE
        )
        UPDATE memories m SET last_accessed_at = greatest(m.last_accessed_at, ${now.toISOString()}::timestamptz)
        FROM locked WHERE m.agent_id = ${agentId} AND m.id = locked.id
        RETURNING m.id, ${isoUtc(sql`m.last_accessed_at`)} AS at`,
  );
  return new Map(rows.map((r) => [r.id, r.at]));
}
