import { type Parsed, UsageError } from "./io";

/** The first positional, the agent id; a usage error when it is missing. */
export function oneAgent(args: Parsed): string {
  const agentId = args.positionals[0];
  if (!agentId) throw new UsageError("needs an agent id");
  return agentId;
}

/** The API path of an agent (its id URL-encoded: ids may hold `/`). */
export const agentPath = (agentId: string) => `/v1/agents/${encodeURIComponent(agentId)}`;
