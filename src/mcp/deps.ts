import type { ApiKey } from "../config";
import type { Logger } from "../lib/logger";
import type { ReflectAgentDeps } from "../memory/reflect/types";
import type { Services } from "../services";

/** What the MCP tools need of the services the HTTP API gets (src/services.ts): the domain's reflect deps, text work, logger. */
export type McpDeps = Pick<Services, keyof ReflectAgentDeps | "text" | "logger">;

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
