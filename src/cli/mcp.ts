import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { composeSystem } from "../compose";
import { loadConfig } from "../config";
import { createLogger } from "../lib/logger";
import { createMcpServer } from "../mcp/server";

// `npm run mcp` / `npx memstream-mcp`: the MCP tools over stdio for desktop hosts (Claude Desktop,
// Cursor). stdout carries JSON-RPC only; logs go to stderr. The process owns its database
// connection like the API does (same config), and runs the enrichment workers unless told not to.
const config = loadConfig();
const logger = createLogger(config.logLevel, { service: "memstream-mcp" });
const system = await composeSystem(config, logger);
if (config.jobs.workers === "in-process") system.jobs.startWorkers();

const server = createMcpServer(
  {
    memory: system.memory,
    reflect: system.reflect,
    tokenizerEncoding: config.tokenizerEncoding,
    logger,
  },
  // The local process already holds the database credentials: no API key applies here.
  { key: { token: "", agentPrefix: null }, defaultAgentId: config.mcp.defaultAgentId ?? undefined },
);

let stopping = false;
async function shutdown(reason: string) {
  if (stopping) return;
  stopping = true;
  logger.info("shutting down", { reason });
  await server.close();
  await system.close();
  process.exit(0);
}
// The host ends the server by closing stdin (or by a signal).
process.stdin.on("end", () => void shutdown("stdin closed"));
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

await server.connect(new StdioServerTransport());
logger.info("MCP server on stdio", {
  database: system.database.kind === "pglite" ? `embedded PGlite in ${config.dataDir}` : "PostgreSQL",
  defaultAgent: config.mcp.defaultAgentId ?? "none (tools need agentId)",
});
