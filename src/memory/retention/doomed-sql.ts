import { type SQL, sql } from "drizzle-orm";
import { CITING_KINDS, NEVER_FORGOTTEN_KINDS, type RetentionPolicy } from "./policy";

// The SQL shared by the dry run (preview.ts) and the deleting run (apply.ts), so both answer
// the same question: which of an agent's memories does a policy forget?

const list = (xs: readonly string[]) =>
  sql.join(
    xs.map((x) => sql`${x}`),
    sql`, `,
  );

/**
 * CTEs `cited` (every id a reflection or lesson of the agent cites, as of this statement) and
 * `total` (the stream's size now). Citations are read from the `citations` column of the citing
 * kinds, whatever kind the cited memory has, so outcomes a lesson rests on are kept with it.
 */
export function citedAndTotal(agentId: string): SQL {
  return sql`cited AS MATERIALIZED (
      SELECT DISTINCT unnest(citations) AS id FROM memories
      WHERE agent_id = ${agentId} AND kind IN (${list(CITING_KINDS)}) AND cardinality(citations) > 0
    ),
    total AS (SELECT count(*)::bigint AS n FROM memories WHERE agent_id = ${agentId})`;
}

/** Memories (alias `m`) retention may delete at all: not a kept kind, not important enough to keep, not cited. */
export function deletable(agentId: string, p: RetentionPolicy): SQL {
  // NULL importance (not scored yet) fails `<`, so unscored memories are kept under this rule.
  const keep =
    p.keepImportanceAtLeast === undefined ? sql`` : sql`AND m.importance < ${p.keepImportanceAtLeast}`;
  return sql`m.agent_id = ${agentId} AND m.kind NOT IN (${list(NEVER_FORGOTTEN_KINDS)}) ${keep}
    AND NOT EXISTS (SELECT 1 FROM cited WHERE cited.id = m.id)`;
}

/**
 * Whether a deletable memory goes, given its 1-based position `pos` among the deletable ones,
 * oldest first (created_at, id), and the CTE `total`: older than maxAgeDays, or among the oldest
 * `total − maxMemories`. Both rules pick a prefix of that order, so their union is a prefix too.
 */
export function doomed(p: RetentionPolicy, now: Date, createdAt: SQL, pos: SQL): SQL {
  const rules: SQL[] = [];
  if (p.maxAgeDays !== undefined) {
    const cutoff = new Date(now.getTime() - p.maxAgeDays * 86_400_000);
    rules.push(sql`${createdAt} < ${cutoff.toISOString()}::timestamptz`);
  }
  if (p.maxMemories !== undefined) rules.push(sql`${pos} <= (SELECT n FROM total) - ${p.maxMemories}`);
  return rules.length === 0 ? sql`false` : sql`(${sql.join(rules, sql` OR `)})`;
}
