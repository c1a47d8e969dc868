import type { CallToolResult, JSONRPCMessage, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { DEFAULT_AGENT_HEADER, MCP_PATH } from "./http";

/** A tool error as the local tools answer one (`code: message`), for a call that could not run. */
export function toolFailure(id: JSONRPCRequest["id"], code: string, message: string): JSONRPCMessage {
  const result: CallToolResult = { isError: true, content: [{ type: "text", text: `${code}: ${message}` }] };
  return { jsonrpc: "2.0", id, result };
}

/**
 * Sends one `tools/call` to the server that owns the embedded folder, over its `/mcp` route
 * (stateless: any request stands alone), and returns its JSON-RPC answer. An HTTP error (a wrong
 * key, a body over its limit) becomes a tool error naming the server; a network error is thrown,
 * so the caller can see whether the owner is gone.
 */
export async function forwardToolCall(
  url: string,
  request: JSONRPCRequest,
  opts: { agentId?: string; token?: string },
): Promise<JSONRPCMessage> {
  const res = await fetch(`${url}${MCP_PATH}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(opts.agentId ? { [DEFAULT_AGENT_HEADER]: opts.agentId } : {}),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    body: JSON.stringify(request),
  });
  const body = await res.text();
  if (res.ok) return JSON.parse(body) as JSONRPCMessage;
  let message = body.slice(0, 300);
  try {
    message = (JSON.parse(body) as { error: { message: string } }).error.message ?? message;
  } catch {
    // Not the error envelope: the text as it came.
  }
  const hint = res.status === 401 ? " (give the MCP server one of its keys in MEMSTREAM_API_KEYS)" : "";
  return toolFailure(
    request.id,
    "unavailable",
    `the memstream server at ${url} answered ${res.status}: ${message}${hint}`,
  );
}
