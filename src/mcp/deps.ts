import type { ApiKey } from "../config";
import type { Logger } from "../lib/logger";
import type { ContextText } from "../memory/context/retrieve-context";
import type { MemoryDeps } from "../memory/deps";
import type { ReflectAgentDeps } from "../memory/reflect/types";

/** What the MCP tools need: the same domain deps the HTTP API gets, built once in `src/compose.ts`. */
export type McpDeps = {
  memory: MemoryDeps;
  reflect: ReflectAgentDeps;
  /** Where context blocks are counted (the TextWork's threads). */
  text: ContextText;
  logger: Logger;
};

/**
 * Where the tools get their deps: the HTTP route hands the API's, already open; the stdio server
 * opens the database and the model on the first tool call, so a host lists the tools at once.
 * A failed load is retried by the next call (it throws into that call's tool error).
 */
export type McpDepsSource = { logger: Logger; load(): Promise<McpDeps> };

/** A source of deps that are already built. */
export const readyDeps = (deps: McpDeps): McpDepsSource => ({ logger: deps.logger, load: async () => deps });

/** One MCP connection: who is calling (their key and its agent prefix) and the default agent, if any. */
export type McpSession = { key: ApiKey; defaultAgentId?: string };
