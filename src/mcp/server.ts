import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { McpDepsSource, McpSession } from "./deps";
import { registerFeedback } from "./tools/feedback";
import { registerForget } from "./tools/forget";
import { registerRecall } from "./tools/recall";
import { registerRecordOutcome } from "./tools/record-outcome";
import { registerReflect } from "./tools/reflect";
import { registerRemember } from "./tools/remember";
import { registerStats } from "./tools/stats";

const INSTRUCTIONS = [
  "memstream is your long-term memory. Call `recall` with the question at hand before answering when earlier",
  "conversations or facts could matter; call `remember` with self-contained statements of what you learned, did",
  "or decided. `reflect` draws conclusions from recent memories; `forget` deletes a wrong memory; `stats` counts them.",
  "After answering from a recall, `feedback` with its retrievalId and the ids you used teaches your ranking.",
].join(" ");

/** An MCP server exposing the memory verbs as tools for one connection (its key and default agent). */
export function createMcpServer(deps: McpDepsSource, session: McpSession): McpServer {
  const server = new McpServer({ name: "memstream", version: "1" }, { instructions: INSTRUCTIONS });
  registerRemember(server, deps, session);
  registerRecall(server, deps, session);
  registerReflect(server, deps, session);
  registerForget(server, deps, session);
  registerStats(server, deps, session);
  registerRecordOutcome(server, deps, session);
  registerFeedback(server, deps, session);
  return server;
}
