import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { System } from "../compose";
import { loadConfig } from "../config";
import { createLogger } from "../lib/logger";
import type { McpDeps } from "../mcp/deps";
import { createMcpServer } from "../mcp/server";

// `npm run mcp` / `npx memstream-mcp`: the MCP tools over stdio for desktop hosts (Claude Desktop,
// Claude Code, Cursor). stdout carries JSON-RPC only; logs go to stderr. The process owns its
// database connection like the API does (same config), and runs the enrichment workers unless
// told not to.
//
// Hosts give a server a few seconds to list its tools, and opening the database (a fresh embedded
// one is created and migrated: ~8 s) and the model takes longer. So the server answers at once
// and the system is composed on demand: warming starts once the host has initialized, and the
// first tool call waits for it.
const config = loadConfig();
const logger = createLogger(config.logLevel, { service: "memstream-mcp" });

let system: Promise<System> | null = null;
function compose(): Promise<System> {
  system ??= import("../compose")
    .then(({ composeSystem }) => composeSystem(config, logger))
    .then((s) => {
      if (config.jobs.workers === "in-process") s.jobs.startWorkers();
      logger.info("MCP server ready", {
        database: s.database.kind === "pglite" ? `embedded PGlite in ${config.dataDir}` : "PostgreSQL",
      });
      return s;
    })
    .catch((err: unknown) => {
      // Forgotten, so the next tool call tries again (e.g. once the database is back).
      system = null;
      throw err;
    });
  return system;
}
const load = async (): Promise<McpDeps> => {
  const s = await compose();
  return { memory: s.memory, reflect: s.reflect, text: s.text, logger };
};

const server = createMcpServer(
  { logger, load },
  // The local process already holds the database credentials: no API key applies here.
  { key: { token: "", scope: null }, defaultAgentId: config.mcp.defaultAgentId ?? undefined },
);
server.server.oninitialized = () => {
  compose().catch((err: unknown) =>
    logger.warn("warming up failed; the next tool call retries", { error: String(err) }),
  );
};

let stopping = false;
async function shutdown(reason: string) {
  if (stopping) return;
  stopping = true;
  logger.info("shutting down", { reason });
  await server.close();
  const s = await system?.catch(() => null);
  await s?.close();
  process.exit(0);
}
// The host ends the server by closing stdin (or by a signal).
process.stdin.on("end", () => void shutdown("stdin closed"));
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

await server.connect(new StdioServerTransport());
logger.info("MCP server on stdio", {
  database: config.databaseUrl ? "PostgreSQL" : `embedded PGlite in ${config.dataDir}`,
  defaultAgent: config.mcp.defaultAgentId ?? "none (tools need agentId)",
});
