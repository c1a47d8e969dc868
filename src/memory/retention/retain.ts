import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { agentSettings } from "../../db/schema";
import { purgeExpired } from "../deletion/purge-expired";
import type { MemoryDeps } from "../deps";
import { agentEpoch, assertNotErased } from "../erasure/guard";
import { compactAgent } from "../tiers/compact";
import { readCompaction } from "../tiers/settings";
import { applyForget } from "./apply";
import { agentPolicy } from "./forget";
import { deletesAnything } from "./policy";

/**
 * One scheduled retention run (`agent.retain`): applies the agent's own policy and records the
 * run in `retained_at`, so the sweep enqueues the next one an interval later. An agent whose
 * policy was removed meanwhile is left alone (a late job does nothing).
 */
export async function retainAgent(
  deps: Pick<MemoryDeps, "db" | "clock" | "embedder">,
  agentId: string,
  batch?: number,
): Promise<{ deleted: number }> {
  // Expired memories go whatever the policy (docs/adr/0038): for agents nobody reads, this is when.
  const expired = await purgeExpired(deps, agentId, deps.clock.now());
  // Before the policy is read: a run whose agent is erased meanwhile stops at its next batch.
  const since = { epoch: await agentEpoch(deps.db, agentId) };
  const policy = await agentPolicy(deps, agentId);
  const compaction = await readCompaction(deps.db, agentId);
  const forgets = policy !== null && deletesAnything(policy);
  if (!forgets && compaction.afterDays === null) return { deleted: expired.count };
  const now = deps.clock.now();
  const { count } = forgets ? await applyForget(deps.db, agentId, since, policy, now, batch) : { count: 0 };
  // Compaction (docs/adr/0044) after the policy: what retention deletes is not summarized first.
  if (compaction.afterDays !== null) {
    await compactAgent(deps, agentId, {
      before: new Date(now.getTime() - compaction.afterDays * 86_400_000),
      groupMax: compaction.groupMax,
    });
  }
  await deps.db.transaction(async (tx) => {
    await assertNotErased(tx, agentId, since);
    await tx.update(agentSettings).set({ retainedAt: now }).where(eq(agentSettings.agentId, agentId));
  });
  return { deleted: count + expired.count };
}

/** Agents with a retention policy whose last run is older than `intervalMs` (or that never ran), longest-waiting first. */
export async function agentsDueForRetention(
  deps: Pick<MemoryDeps, "db" | "clock">,
  opts: { intervalMs: number; limit: number },
): Promise<string[]> {
  const before = new Date(deps.clock.now().getTime() - opts.intervalMs);
  const rows = await deps.db
    .select({ agentId: agentSettings.agentId })
    .from(agentSettings)
    .where(
      and(
        or(isNotNull(agentSettings.retention), isNotNull(agentSettings.compaction)),
        or(isNull(agentSettings.retainedAt), lt(agentSettings.retainedAt, before)),
      ),
    )
    .orderBy(sql`${agentSettings.retainedAt} ASC NULLS FIRST`)
    .limit(opts.limit);
  return rows.map((r) => r.agentId);
}
