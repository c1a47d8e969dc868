import type { ApiKey } from "../config";
import type { Logger } from "../lib/logger";
import type { TokenEncoding } from "../memory/context/tokens";
import type { MemoryDeps } from "../memory/deps";
import type { ReflectAgentDeps } from "../memory/reflect/types";

/** What the MCP tools need: the same domain deps the HTTP API gets, built once in `src/compose.ts`. */
export type McpDeps = {
  memory: MemoryDeps;
  reflect: ReflectAgentDeps;
  tokenizerEncoding: TokenEncoding;
  logger: Logger;
};

/** One MCP connection: who is calling (their key and its agent prefix) and the default agent, if any. */
export type McpSession = { key: ApiKey; defaultAgentId?: string };
