import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ReflectionFailed } from "../../lib/errors";
import { reflectAgent } from "../../memory/reflect/reflect";
import { AgentIdArg, resolveAgent } from "../agent";
import type { McpDepsSource, McpSession } from "../deps";
import { guard, ok } from "../result";

/** `reflect`: run one reflection now and return its insights with what they cite. */
export function registerReflect(server: McpServer, source: McpDepsSource, session: McpSession) {
  server.registerTool(
    "reflect",
    {
      title: "Reflect",
      description: [
        "Step back and draw higher-level conclusions from recent memories: the server asks its LLM for the most salient questions,",
        "answers them from memory and stores the insights as `reflection` memories citing the memories they rest on.",
        "Use it after a burst of new observations or before planning. It takes a few LLM calls;",
        "reflections also run on their own as importance accumulates. Fails with not_configured when the server has no LLM.",
      ].join(" "),
      inputSchema: { agentId: AgentIdArg },
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    (args) =>
      guard(source, "reflect", async (deps) => {
        const agentId = resolveAgent(session, args.agentId);
        const { run, insights } = await reflectAgent(deps, agentId, "manual");
        if (run.status === "failed") {
          throw new ReflectionFailed(`reflection failed: ${run.error ?? "unknown error"}`, { runId: run.id });
        }
        const lines = insights.map((m) => `- ${m.description} [${m.id}; cites ${m.citations.join(", ")}]`);
        const text =
          insights.length === 0
            ? "Reflected, but found no new insight."
            : `Stored ${insights.length} insight(s):\n${lines.join("\n")}`;
        return ok(text, {
          agentId,
          runId: run.id,
          questions: run.questions,
          insights: insights.map((m) => ({ id: m.id, description: m.description, citations: m.citations })),
        });
      }),
  );
}
