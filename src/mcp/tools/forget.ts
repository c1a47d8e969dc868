import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { deleteMemory } from "../../memory/delete-memory";
import { AgentIdArg, resolveAgent } from "../agent";
import type { McpDepsSource, McpSession } from "../deps";
import { guard, ok } from "../result";

/** `forget`: delete one memory for good. */
export function registerForget(server: McpServer, source: McpDepsSource, session: McpSession) {
  server.registerTool(
    "forget",
    {
      title: "Forget",
      description:
        "Delete one memory for good, by the id that remember or recall returned. Use it for memories that are wrong, obsolete or that the user asked you to forget. It cannot be undone; reflections citing it keep their text.",
      inputSchema: {
        agentId: AgentIdArg,
        id: z.string().min(1).max(64).describe("The memory's id, e.g. mem_3n8x0q4w7f2k9d1c5b6a"),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
    (args) =>
      guard(source, "forget", async (deps) => {
        const agentId = resolveAgent(session, args.agentId);
        await deleteMemory(deps, agentId, args.id);
        return ok(`Forgot ${args.id}.`, { agentId, id: args.id, deleted: true });
      }),
  );
}
