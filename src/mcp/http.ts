import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { checkAgentAccess } from "../api/auth";
import type { App } from "../api/deps";
import { errorResponse } from "../api/errors";
import { type McpDeps, readyDeps } from "./deps";
import { createMcpServer } from "./server";

export const MCP_PATH = "/mcp";
/** Header naming the connection's default agent (tools then need no agentId). */
export const DEFAULT_AGENT_HEADER = "x-memstream-agent";

/**
 * Streamable HTTP at `/mcp`, stateless: every POST gets a fresh server and transport, so any
 * process behind a load balancer can answer and nothing is kept between requests. JSON answers
 * (no SSE stream): every tool finishes within its request. Authentication is `/v1`'s middleware.
 */
export function registerMcpRoute(app: App, deps: McpDeps) {
  const source = readyDeps(deps);
  app.post(MCP_PATH, async (c) => {
    const defaultAgentId = c.req.header(DEFAULT_AGENT_HEADER) || c.req.query("agent") || undefined;
    const key = c.get("apiKey");
    if (defaultAgentId) {
      const denied = checkAgentAccess(defaultAgentId, key);
      if (denied) return errorResponse(c, denied.code, `${DEFAULT_AGENT_HEADER}: ${denied.message}`);
    }
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
    const server = createMcpServer(source, { key, defaultAgentId });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  });
  // No sessions, so no server-initiated stream (GET) and nothing to end (DELETE).
  app.on(["GET", "DELETE"], MCP_PATH, (c) =>
    c.json(
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: "Method not allowed: POST JSON-RPC to /mcp" },
        id: null,
      },
      405,
    ),
  );
}
