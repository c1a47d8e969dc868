import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isUnavailable } from "../api/errors";
import { DomainError } from "../lib/errors";
import type { McpDeps, McpDepsSource } from "./deps";

/** A successful tool answer: text for the model, the same facts as structured content for programs. */
export function ok(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured };
}

/**
 * Runs a tool body with the deps (loaded on first use) and turns failures into tool errors
 * (`isError`), so the calling model reads `code: message` and can correct itself, as with the HTTP
 * error envelope. Unknown errors log their stack once and answer without internals.
 */
export async function guard(
  source: McpDepsSource,
  tool: string,
  body: (deps: McpDeps) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const logger = source.logger;
  try {
    return await body(await source.load());
  } catch (err) {
    if (err instanceof DomainError) return failure(err.code, err.message);
    if (isUnavailable(err)) {
      logger.warn("dependency unavailable", { tool, error: String(err) });
      return failure("unavailable", "the database is unreachable; retry later");
    }
    logger.error("unhandled error in MCP tool", { tool, error: (err as Error)?.stack ?? String(err) });
    return failure("internal", "internal error");
  }
}

function failure(code: string, message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `${code}: ${message}` }] };
}
