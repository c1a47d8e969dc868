import { agentSettings } from "../db/schema";
import type { MemoryDeps } from "./deps";

export type AgentSettings = {
  agentId: string;
  /** The agent's own threshold; null = the deployment default. 0 turns the threshold trigger off. */
  reflectionThreshold: number | null;
  /** The threshold in force: the agent's own, else the deployment default. */
  effectiveReflectionThreshold: number;
};

/** Sets an agent's settings (creating its row on first use) and returns them. */
export async function updateAgentSettings(
  deps: Pick<MemoryDeps, "db" | "clock">,
  agentId: string,
  patch: { reflectionThreshold: number | null },
  defaults: { reflectionThreshold: number },
): Promise<AgentSettings> {
  const now = deps.clock.now();
  const [row] = await deps.db
    .insert(agentSettings)
    .values({ agentId, reflectionThreshold: patch.reflectionThreshold, updatedAt: now })
    .onConflictDoUpdate({
      target: agentSettings.agentId,
      set: { reflectionThreshold: patch.reflectionThreshold, updatedAt: now },
    })
    .returning();
  const threshold = row?.reflectionThreshold ?? null;
  return {
    agentId,
    reflectionThreshold: threshold,
    effectiveReflectionThreshold: threshold ?? defaults.reflectionThreshold,
  };
}
