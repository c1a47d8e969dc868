import { learnWeights } from "../../memory/learning/learn";
import type { Processor } from "./types";

/**
 * `agent.learn`: fits the agent's ranking weights to its feedback and stores the fit (adopted
 * only past the guardrails). Idempotent: with no new feedback since the last fit it does nothing.
 */
export const learnAgentJob: Processor<"agent.learn"> = async (
  { agentId },
  ctx,
): Promise<Record<string, number | string>> => {
  const r = await learnWeights(ctx, agentId);
  if (!r.fitted) return { skipped: r.reason };
  return { adopted: String(r.adopted), events: r.events, gain: r.gain };
};
