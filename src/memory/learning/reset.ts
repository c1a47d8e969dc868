import { agentSettings } from "../../db/schema";
import type { MemoryDeps } from "../deps";
import { NO_LEARNING } from "./state";

/**
 * Forgets the agent's learned weights and their evidence: its retrieves rank with its defaults
 * again, and later fits use only feedback given after now.
 */
export async function resetLearnedWeights(deps: Pick<MemoryDeps, "db" | "clock">, agentId: string) {
  const now = deps.clock.now();
  const learned = { ...NO_LEARNING, resetAt: now.toISOString() };
  await deps.db
    .insert(agentSettings)
    .values({ agentId, learned, updatedAt: now })
    .onConflictDoUpdate({ target: agentSettings.agentId, set: { learned, updatedAt: now } });
  return { agentId, resetAt: learned.resetAt };
}
