import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { NewOutcome } from "../../api/outcome-schemas";
import { recordOutcome } from "../../memory/outcomes/record-outcome";
import { AgentIdArg, resolveAgent } from "../agent";
import type { McpDepsSource, McpSession } from "../deps";
import { guard, ok } from "../result";

const f = NewOutcome.shape;
const input = {
  agentId: AgentIdArg,
  task: f.task.describe(
    "What you tried to do, as one specific sentence, e.g. 'Deploy the billing service to staging'",
  ),
  taskType: f.taskType.describe(
    "A short stable name for the kind of task, e.g. 'deploy' or 'fix-ci': lessons are drawn per task type",
  ),
  success: f.success.describe("true if the task succeeded"),
  strategy: f.strategy.describe("How you went about it, e.g. 'blue-green deploy'"),
  error: f.error.describe("What went wrong, if it failed, e.g. 'port 8080 already in use'"),
  durationMs: f.durationMs.describe("How long it took, in milliseconds"),
  metadata: f.metadata.describe("Small JSON object for filtering later"),
  occurredAt: f.occurredAt.describe("When it happened (ISO 8601); default now"),
};

/** `record_outcome`: store how a task went; similar outcomes become lessons in the background. */
export function registerRecordOutcome(server: McpServer, source: McpDepsSource, session: McpSession) {
  server.registerTool(
    "record_outcome",
    {
      title: "Record outcome",
      description: [
        "Record how a task you attempted turned out: the task, its type, whether it succeeded, the strategy you used and the error if it failed.",
        "Once a few similar outcomes of one task type accumulate, the server writes a lesson (which strategy works, which to avoid) that `recall` returns before your next attempt.",
        "Use the same taskType for the same kind of task.",
      ].join(" "),
      inputSchema: input,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    (args) =>
      guard(source, "record_outcome", async (deps) => {
        const agentId = resolveAgent(session, args.agentId);
        const { agentId: _, ...outcome } = args;
        const stored = await recordOutcome(deps, agentId, outcome);
        return ok(`Recorded outcome ${stored.id} for ${agentId}: ${stored.description}`, {
          agentId,
          id: stored.id,
        });
      }),
  );
}
