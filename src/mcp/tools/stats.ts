import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { agentStats, describeCounts } from "../../memory/agent-stats";
import { AgentIdArg, resolveAgent } from "../agent";
import type { McpDepsSource, McpSession } from "../deps";
import { guard, ok } from "../result";

/** `stats`: how big the stream is and whether enrichment has caught up. */
export function registerStats(server: McpServer, source: McpDepsSource, session: McpSession) {
  server.registerTool(
    "stats",
    {
      title: "Memory stats",
      description:
        "Count the agent's memories by kind (observations, reflections, plans, document sections, outcomes, lessons) and by enrichment state (importance and embedding pending, ready or failed), with the time span they cover. Use it to check whether anything is remembered yet.",
      inputSchema: { agentId: AgentIdArg },
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    (args) =>
      guard(source, "stats", async (deps) => {
        const agentId = resolveAgent(session, args.agentId);
        const s = await agentStats(deps, agentId);
        const text = [
          `${agentId}: ${describeCounts(s)}`,
          `importance: ${s.importance.ready} ready, ${s.importance.pending} pending, ${s.importance.failed} failed`,
          `embedding: ${s.embedding.ready} ready, ${s.embedding.pending} pending, ${s.embedding.failed} failed`,
          s.oldest ? `from ${s.oldest} to ${s.newest}` : "no memories yet",
        ].join("\n");
        return ok(text, s);
      }),
  );
}
