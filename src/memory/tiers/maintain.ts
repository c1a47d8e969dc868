import { Invalid } from "../../lib/errors";
import type { MemoryDeps } from "../deps";
import { recorded } from "../events";
import { type CompactReport, compactAgent } from "./compact";
import { readCompaction } from "./settings";

export type MaintenanceRequest = {
  dryRun?: boolean;
  /** Compact observations created before this time (ISO 8601); absent = the agent's afterDays before now. */
  before?: string;
  groupMax?: number;
};

/**
 * Compaction now (`POST …/maintenance`), with the agent's settings unless the request names the
 * cutoff or the group size; 400 when neither the request nor the agent gives a cutoff. A dry run
 * counts. Bounded per request (compact.ts COMPACT_PER_RUN; `more` says to ask again).
 */
export async function maintainAgent(
  deps: Pick<MemoryDeps, "db" | "clock" | "embedder"> & Partial<Pick<MemoryDeps, "announce">>,
  agentId: string,
  req: MaintenanceRequest,
): Promise<{ compaction: CompactReport; tookMs: number }> {
  const started = Date.now();
  const settings = await readCompaction(deps.db, agentId);
  const now = deps.clock.now();
  const before = req.before
    ? new Date(req.before)
    : settings.afterDays !== null
      ? new Date(now.getTime() - settings.afterDays * 86_400_000)
      : null;
  if (!before) {
    throw new Invalid(
      "no cutoff: give `before`, or set the agent's compaction.afterDays (PUT /v1/agents/{agentId}/settings)",
      { field: "before" },
    );
  }
  const compaction = await compactAgent(deps, agentId, {
    before,
    groupMax: req.groupMax ?? settings.groupMax,
    dryRun: req.dryRun ?? false,
  });
  // The summaries' `memory.written` events, if the agent has subscriptions (src/outgoing).
  if (compaction.summaries > 0 && !compaction.dryRun) await deps.announce?.(recorded([{ agentId }]));
  return { compaction, tookMs: Date.now() - started };
}
