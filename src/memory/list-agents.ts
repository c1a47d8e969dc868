import { sql } from "drizzle-orm";
import { queryRows } from "../db/client";
import { type AgentScope, agentScopeSql } from "../lib/agent-scope";
import type { MemoryDeps } from "./deps";

/**
 * Agent ids that have memories, in id order, `limit` at a time after `after`, only those of
 * `scope` (a scoped key's tenant: a prefix, or one exact id). A loose index scan: one probe of the (agent, created)
 * index per distinct agent, so the cost grows with the number of agents, never with memories.
 */
export async function listAgents(
  deps: Pick<MemoryDeps, "db">,
  opts: { scope: AgentScope | null; limit: number; after?: string },
): Promise<{ agents: string[]; next: string | null }> {
  const prefix = opts.scope?.value ?? "";
  const start = opts.after && opts.after >= prefix ? opts.after : null;
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`WITH RECURSIVE agents(id) AS (
          (SELECT agent_id FROM memories
            WHERE ${start === null ? sql`agent_id >= ${prefix}` : sql`agent_id > ${start}`}
            ORDER BY agent_id LIMIT 1)
          UNION ALL
          SELECT (SELECT m.agent_id FROM memories m WHERE m.agent_id > a.id ORDER BY m.agent_id LIMIT 1)
            FROM agents a WHERE a.id IS NOT NULL
        )
        SELECT id FROM agents WHERE id IS NOT NULL AND ${agentScopeSql(opts.scope, sql`id`) ?? sql`true`}
        LIMIT ${opts.limit + 1}`,
  );
  const agents = rows.slice(0, opts.limit).map((r) => r.id);
  return { agents, next: rows.length > opts.limit ? (agents.at(-1) ?? null) : null };
}
