import { sql } from "drizzle-orm";
import { queryRows } from "../db/client";
import { isoUtc } from "../db/iso";
import type { LlmBudgetStatus } from "./budget/budget";
import { purgeExpired } from "./deletion/purge-expired";
import type { MemoryDeps } from "./deps";
import { FIELDS } from "./enrichment/fields";
import { type EnrichmentState, MEMORY_KINDS } from "./types";

export type AgentStats = {
  agentId: string;
  total: number;
  byKind: Record<(typeof MEMORY_KINDS)[number], number>;
  /**
   * Memories per tier (docs/adr/0044): `recent` and `summary` are ranked (`total` counts them),
   * `archive` holds what compaction moved behind summaries.
   */
  tiers: { recent: number; summary: number; archive: number };
  importance: Record<EnrichmentState, number>;
  embedding: Record<EnrichmentState, number>;
  /** createdAt of the oldest and newest memory; null for an empty stream. */
  oldest: string | null;
  newest: string | null;
  /** Memories deleted by retention (the agent.retain job and forget), all time. */
  forgotten: number;
  /** When the agent.retain job last applied the agent's policy; null = never. */
  retainedAt: string | null;
  /** Today's LLM spend, limits and what is left; null when the deps carry no budget. */
  llmBudget: LlmBudgetStatus | null;
};

type Row = {
  kind: string;
  imp: string;
  emb: string;
  n: number | string;
  oldest: string | null;
  newest: string | null;
  /** Memories deleted by retention (the agent.retain job and forget), all time. */
  forgotten: number;
  /** When the agent.retain job last applied the agent's policy; null = never. */
  retainedAt: string | null;
};

const imp = FIELDS.importance.status;
const emb = FIELDS.embedding.status;

/**
 * Counts by kind and enrichment state, the time span, and retention's tally, in one statement:
 * one snapshot, so a retention run that commits while the stats are read is seen whole or not at
 * all (two statements could count a memory as both still there and forgotten).
 */
export async function agentStats(
  deps: Pick<MemoryDeps, "db" | "clock" | "budget">,
  agentId: string,
): Promise<AgentStats> {
  await purgeExpired(deps, agentId, deps.clock.now());
  const [read] = await queryRows<{
    rows: Row[] | null;
    forgotten: number | null;
    retainedAt: string | null;
    archived: number | string;
  }>(
    deps.db,
    sql`WITH c AS (
        SELECT kind, ${imp} AS imp, ${emb} AS emb, count(*)::int AS n,
          ${isoUtc(sql`min(created_at)`)} AS oldest,
          ${isoUtc(sql`max(created_at)`)} AS newest
        FROM memories WHERE agent_id = ${agentId}
        GROUP BY kind, ${imp}, ${emb}
      )
      SELECT (SELECT json_agg(c) FROM c) AS rows, s.forgotten, ${isoUtc(sql`s.retained_at`)} AS "retainedAt",
        (SELECT count(*) FROM memory_archive WHERE agent_id = ${agentId}) AS archived
      FROM (SELECT 1) one LEFT JOIN agent_settings s ON s.agent_id = ${agentId}`,
  );
  const rows = read?.rows ?? [];
  const retention = read;
  const zero = () => ({ pending: 0, ready: 0, failed: 0 });
  const stats: AgentStats = {
    agentId,
    total: 0,
    byKind: { observation: 0, reflection: 0, plan: 0, document: 0, outcome: 0, lesson: 0, summary: 0 },
    tiers: { recent: 0, summary: 0, archive: Number(read?.archived ?? 0) },
    importance: zero(),
    embedding: zero(),
    oldest: null,
    newest: null,
    forgotten: Number(retention?.forgotten ?? 0),
    retainedAt: retention?.retainedAt ?? null,
    llmBudget: await deps.budget.status(agentId),
  };
  for (const r of rows) {
    const n = Number(r.n);
    stats.total += n;
    stats.byKind[r.kind as keyof AgentStats["byKind"]] += n;
    stats.importance[r.imp as EnrichmentState] += n;
    stats.embedding[r.emb as EnrichmentState] += n;
    if (r.oldest && (!stats.oldest || r.oldest < stats.oldest)) stats.oldest = r.oldest;
    if (r.newest && (!stats.newest || r.newest > stats.newest)) stats.newest = r.newest;
  }
  stats.tiers.summary = stats.byKind.summary;
  stats.tiers.recent = stats.total - stats.byKind.summary;
  return stats;
}

const KIND_NAMES: Record<(typeof MEMORY_KINDS)[number], [string, string]> = {
  observation: ["observation", "observations"],
  reflection: ["reflection", "reflections"],
  plan: ["plan", "plans"],
  document: ["document section", "document sections"],
  outcome: ["outcome", "outcomes"],
  lesson: ["lesson", "lessons"],
  summary: ["summary", "summaries"],
};

/**
 * "15 memories: 9 observations, 1 reflection, 4 document sections, 1 outcome": every kind the
 * stream holds, so the parts add up to the total (the `/ui` header and MCP `stats` say it).
 */
export function describeCounts(s: Pick<AgentStats, "total" | "byKind">): string {
  const parts = MEMORY_KINDS.filter((k) => s.byKind[k] > 0).map(
    (k) => `${s.byKind[k]} ${KIND_NAMES[k][s.byKind[k] === 1 ? 0 : 1]}`,
  );
  const total = `${s.total} ${s.total === 1 ? "memory" : "memories"}`;
  return parts.length > 0 ? `${total}: ${parts.join(", ")}` : total;
}
