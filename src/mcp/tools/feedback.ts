import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { recordFeedback } from "../../memory/learning/feedback";
import { LIMITS } from "../../memory/limits";
import { AgentIdArg, resolveAgent } from "../agent";
import type { McpDepsSource, McpSession } from "../deps";
import { guard, ok } from "../result";

const Ids = z.array(z.string().min(1).max(64)).max(LIMITS.maxK);

/** `feedback`: which memories of a recall the answer used (they teach the agent's ranking weights). */
export function registerFeedback(server: McpServer, source: McpDepsSource, session: McpSession) {
  server.registerTool(
    "feedback",
    {
      title: "Feedback",
      description:
        "After answering with a recall's memories, say which of them you actually used (cited, relied on) by the recall's retrievalId. It teaches this agent's ranking which memories matter to it. The other memories of that recall count as unused unless you list `unused`.",
      inputSchema: {
        agentId: AgentIdArg,
        retrievalId: z.string().min(1).max(64).describe("The retrievalId a recall returned"),
        used: Ids.describe("Ids of the recalled memories you used; may be empty"),
        unused: Ids.optional().describe("Ids you did not use; default every other recalled memory"),
      },
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (args) =>
      guard(source, "feedback", async (deps) => {
        const { agentId: requested, ...input } = args;
        const agentId = resolveAgent(session, requested);
        const r = await recordFeedback(deps, agentId, input);
        return ok(`Noted: ${r.used} used, ${r.unused} unused.`, { agentId, ...r });
      }),
  );
}
