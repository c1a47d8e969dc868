import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  isJSONRPCRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { System } from "../compose";
import { loadConfig } from "../config";
import { FolderInUse, folderOwner } from "../db/folder-lock";
import { createLogger } from "../lib/logger";
import type { McpDeps } from "../mcp/deps";
import { forwardToolCall, toolFailure } from "../mcp/forward";
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
//
// One owner per embedded folder (docs/adr/0031): when a server (`npm start`) owns the folder, tool
// calls are sent to it over HTTP and nothing is opened here; when none does, this process opens the
// folder itself, and hands it over to a server that starts later and asks (SIGUSR2), sending its
// calls there from then on.
const config = loadConfig();
const logger = createLogger(config.logLevel, { service: "memstream-mcp" });

let system: Promise<System> | null = null;
function compose(): Promise<System> {
  system ??= import("../compose")
    .then(({ composeSystem }) =>
      composeSystem(config, logger, { role: "memstream stdio MCP server", yields: true }),
    )
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
const load = async (): Promise<McpDeps> => (await compose()).services;

const server = createMcpServer(
  { logger, load },
  // The local process already holds the database credentials: no API key applies here.
  { key: { token: "", scope: null }, defaultAgentId: config.mcp.defaultAgentId ?? undefined },
);
const embedded = !config.databaseUrl;
/** Set while the folder is handed over; calls wait for it, then go to the new owner. */
let handingOver: Promise<void> | null = null;
let handedOverAt = 0;
/** Ids of tool calls running here, which a hand-over lets finish first. */
const runningHere = new Set<JSONRPCRequest["id"]>();

server.server.oninitialized = () => {
  // A folder owned by a server is used through it: nothing to open here.
  if (embedded && folderOwner(config.dataDir)) return;
  compose().catch((err: unknown) =>
    logger.warn("warming up failed; the next tool call retries", { error: String(err) }),
  );
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where tool calls go: the URL of the server that owns the folder, or null to run them here. */
async function ownerUrl(): Promise<string | null> {
  if (!embedded) return null;
  await handingOver;
  if (system) return null;
  // A server that is starting (migrating) writes its URL once it listens; wait for it.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const owner = folderOwner(config.dataDir);
    if (owner?.url) return owner.url;
    // Another stdio MCP server never listens: say so now rather than after the wait.
    if (owner?.yields) throw new FolderInUse(config.dataDir, owner);
    // Just handed over: the server takes the folder within moments; do not take it back meanwhile.
    if (!owner && Date.now() - handedOverAt > 30_000) return null;
    if (Date.now() > deadline) throw owner ? new FolderInUse(config.dataDir, owner) : new Error("no owner");
    await sleep(100);
  }
}

/** Runs a `tools/call` at the owning server, or here; the answer goes back on stdout. */
async function route(request: JSONRPCRequest, runHere: () => void, send: (m: JSONRPCMessage) => void) {
  for (;;) {
    let url: string | null;
    try {
      url = await ownerUrl();
    } catch (err) {
      return send(toolFailure(request.id, "unavailable", (err as Error).message));
    }
    if (handingOver) continue;
    if (!url && embedded && !system) {
      // Another process may have taken the folder since it was read: then ask again where to go.
      const opened = await compose().then(
        () => true,
        (err: unknown) => !(err instanceof FolderInUse),
      );
      if (!opened) continue;
    }
    if (!url) {
      runningHere.add(request.id);
      return runHere();
    }
    try {
      const agentId = config.mcp.defaultAgentId ?? undefined;
      return send(await forwardToolCall(url, request, { agentId, token: config.apiKeys[0]?.token }));
    } catch (err) {
      // The owner stopped answering: if it is gone, its folder is free and the call runs here.
      if (folderOwner(config.dataDir)?.url === url) {
        return send(
          toolFailure(
            request.id,
            "unavailable",
            `the memstream server at ${url} did not answer (${String(err)})`,
          ),
        );
      }
    }
  }
}

/** SIGUSR2 from a server starting on the folder: finish the calls in hand, close, let it in. */
function handOver() {
  if (handingOver || !system) return;
  handingOver = (async () => {
    logger.info("a server asks for the embedded database folder; handing it over");
    const deadline = Date.now() + config.shutdownMs;
    while (runningHere.size > 0 && Date.now() < deadline) await sleep(20);
    const s = await system?.catch(() => null);
    system = null;
    await s?.close();
    handedOverAt = Date.now();
    logger.info("handed the folder over; tool calls now go to the server that owns it");
  })()
    .catch((err: unknown) => logger.error("hand-over failed", { error: String(err) }))
    .finally(() => {
      handingOver = null;
    });
}
process.on("SIGUSR2", handOver);

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

const transport = new StdioServerTransport();
await server.connect(transport);
// Tool calls are routed (above); everything else (initialize, tools/list) is answered here at once.
const answerHere = transport.onmessage;
const send = transport.send.bind(transport);
transport.send = (message: JSONRPCMessage) => {
  if ("id" in message && message.id !== undefined && !("method" in message)) runningHere.delete(message.id);
  return send(message);
};
transport.onmessage = (message: JSONRPCMessage) => {
  if (!isJSONRPCRequest(message) || message.method !== "tools/call") return answerHere?.(message);
  void route(
    message,
    () => answerHere?.(message),
    (m) => void send(m).catch(() => {}),
  );
};
logger.info("MCP server on stdio", {
  database: config.databaseUrl ? "PostgreSQL" : `embedded PGlite in ${config.dataDir}`,
  defaultAgent: config.mcp.defaultAgentId ?? "none (tools need agentId)",
});
