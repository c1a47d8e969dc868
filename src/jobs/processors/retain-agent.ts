import { retainAgent } from "../../memory/retention/retain";
import type { Processor } from "./types";

/**
 * `agent.retain`: applies the agent's retention policy in bounded batches and records the run.
 * Idempotent: a second run right after finds nothing left to delete. A database fault throws and
 * the queue retries; batches already deleted stay deleted (and counted), the retry continues.
 */
export const retainAgentJob: Processor<"agent.retain"> = async ({ agentId }, ctx) => {
  const { deleted } = await retainAgent(ctx, agentId);
  return { deleted };
};
