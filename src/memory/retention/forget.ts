import { eq } from "drizzle-orm";
import { agentSettings } from "../../db/schema";
import { Invalid } from "../../lib/errors";
import type { MemoryDeps } from "../deps";
import { agentEpoch } from "../erasure/guard";
import { applyForget } from "./apply";
import { deletesAnything, type RetentionPolicy } from "./policy";
import { previewForget } from "./preview";
import type { ForgetReport } from "./report";

export type ForgetInput = { dryRun?: boolean; policy?: RetentionPolicy };

/**
 * Applies a retention policy now — the request's, else the agent's setting — or, with dryRun,
 * reports what it would delete without deleting. 400 when there is no policy, or one that
 * deletes nothing (keepImportanceAtLeast alone).
 */
export async function forget(
  deps: Pick<MemoryDeps, "db" | "clock">,
  agentId: string,
  input: ForgetInput,
  batch?: number,
): Promise<ForgetReport> {
  const since = { epoch: await agentEpoch(deps.db, agentId) };
  const policySource = input.policy ? "request" : "agent";
  const policy = input.policy ?? (await agentPolicy(deps, agentId));
  if (!policy) {
    throw new Invalid(`agent ${agentId} has no retention policy; pass one in policy`, { field: "policy" });
  }
  if (!deletesAnything(policy)) {
    throw new Invalid("a retention policy needs maxMemories or maxAgeDays", { field: "policy" });
  }
  const now = deps.clock.now();
  const dryRun = input.dryRun ?? false;
  const result = dryRun
    ? await previewForget(deps.db, agentId, policy, now)
    : await applyForget(deps.db, agentId, since, policy, now, batch);
  return { dryRun, policy, policySource, ...result };
}

/** The agent's stored retention policy; null when it has none. */
export async function agentPolicy(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
): Promise<RetentionPolicy | null> {
  const [row] = await deps.db
    .select({ retention: agentSettings.retention })
    .from(agentSettings)
    .where(eq(agentSettings.agentId, agentId));
  return row?.retention ?? null;
}
