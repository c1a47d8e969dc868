import { z } from "zod";
import { checkAgentAccess } from "../api/auth";
import { DomainError, Invalid } from "../lib/errors";
import type { McpSession } from "./deps";

/** The `agentId` argument every tool takes; optional when the connection names a default agent. */
export const AgentIdArg = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    "The agent whose memory stream to use, e.g. 'npc-42' or 'github:acme/api'. Omit it to use the connection's default agent (X-Memstream-Agent header or MEMSTREAM_MCP_AGENT).",
  );

/** The agent a call acts on: its own `agentId`, else the session's default; checked against the key. */
export function resolveAgent(session: McpSession, agentId: string | undefined): string {
  const id = agentId ?? session.defaultAgentId;
  if (!id) {
    throw new Invalid("agentId is required: this connection has no default agent", { field: "agentId" });
  }
  const denied = checkAgentAccess(id, session.key);
  if (denied) throw new DomainError(denied.code, denied.message, { field: "agentId" });
  return id;
}
