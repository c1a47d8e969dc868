import { sql } from "drizzle-orm";
import { queryRows } from "../db/client";
import type { MemoryDeps } from "./deps";

/**
 * Agent ids that have memories, in id order, `limit` at a time after `after`, only those starting
 * with `prefix` (a scoped key's tenant). A loose index scan: one probe of the (agent, created)
 * index per distinct agent, so the cost grows with the number of agents, never with memories.
 */
export async function listAgents(
  deps: Pick<MemoryDeps, "db">,
  opts: { prefix: string; limit: number; after?: string },
): Promise<{ agents: string[]; next: string | null }> {
  const start = opts.after && opts.after >= opts.prefix ? opts.after : null;
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`WITH RECURSIVE agents(id) AS (
          (SELECT agent_id FROM memories
            WHERE ${start === null ? sql`agent_id >= ${opts.prefix}` : sql`agent_id > ${start}`}
            ORDER BY agent_id LIMIT 1)
          UNION ALL
          SELECT (SELECT m.agent_id FROM memories m WHERE m.agent_id > a.id ORDER BY m.agent_id LIMIT 1)
            FROM agents a WHERE a.id IS NOT NULL
        )
        SELECT id FROM agents WHERE id IS NOT NULL AND starts_with(id, ${opts.prefix})
        LIMIT ${opts.limit + 1}`,
  );
  const agents = rows.slice(0, opts.limit).map((r) => r.id);
  return { agents, next: rows.length > opts.limit ? (agents.at(-1) ?? null) : null };
}
