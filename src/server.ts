import { serve } from "@hono/node-server";
import { createApp } from "./api/app";
import { composeSystem, type System } from "./compose";
import { loadConfig } from "./config";
import { askToYield, FolderInUse } from "./db/folder-lock";
import { createLogger } from "./lib/logger";
import { handleProcessLifecycle } from "./lib/process";
import { createMetrics } from "./metrics";

// `npm start`: the HTTP API. Without DATABASE_URL it runs on embedded PGlite (zero-config).
const config = loadConfig();
const logger = createLogger(config.logLevel, { service: "memstream-api" });
const system = await composeOwningTheFolder();
const app = createApp(system.app);
// Small installs run the workers here too; with `npm run worker` elsewhere set MEMSTREAM_WORKERS=off.
// The text-work threads start now rather than on the first document (a failure is logged, not fatal:
// the pool starts a thread again on demand).
system.services.text
  .warm()
  .catch((err) => logger.warn("text work threads did not start", { error: String(err) }));
system.app.bodies
  .warm()
  .catch((err) => logger.warn("body work thread did not start", { error: String(err) }));
system.providers
  .warm()
  .catch((err) => logger.warn("offline embedder threads did not start", { error: String(err) }));
if (config.jobs.workers === "in-process") system.jobs.startWorkers();
else if (!config.redisUrl)
  logger.warn("MEMSTREAM_WORKERS=off without REDIS_URL: nothing will fill in importance and embeddings");

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  // The stdio MCP server finds this URL in the folder's lock and sends its tool calls here.
  system.database.folder?.announce(localUrl(config.host, info.port));
  logger.info("listening", {
    url: `http://${config.host}:${info.port}`,
    database: system.database.kind === "pglite" ? `embedded PGlite in ${config.dataDir}` : "PostgreSQL",
    embedder: system.providers.embedder.modelId,
    workers:
      config.jobs.workers === "off"
        ? "off"
        : config.redisUrl
          ? "BullMQ (in this process)"
          : "in-process queue",
    auth: config.apiKeys.length > 0 ? `${config.apiKeys.length} API key(s)` : "none (loopback only)",
  });
});

handleProcessLifecycle({
  logger,
  deadlineMs: config.shutdownMs,
  async stop() {
    // No new connections; requests in flight finish. Then workers and the sweep finish what they
    // hold before the database closes. All of it within MEMSTREAM_SHUTDOWN_MS.
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await system.close();
  },
});

/** How a process on this machine reaches a server listening on `host`. */
function localUrl(host: string, port: number): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return `http://127.0.0.1:${port}`;
  return host.includes(":") ? `http://[${host}]:${port}` : `http://${host}:${port}`;
}

/**
 * Composes the system; an embedded folder held by a stdio MCP server is asked for (it finishes its
 * calls, closes and then sends them here), any other owner is a clear refusal (docs/adr/0031).
 */
async function composeOwningTheFolder(): Promise<System> {
  const deadline = Date.now() + config.shutdownMs + 10_000;
  const metrics = createMetrics();
  let asked = false;
  for (;;) {
    try {
      return await composeSystem(config, logger, {
        metrics,
        role: "memstream server (npm start)",
      });
    } catch (err) {
      if (!(err instanceof FolderInUse)) throw err;
      if (!asked && askToYield(err.owner)) {
        asked = true;
        logger.info("the embedded database folder is held by a stdio MCP server; asking it to hand it over", {
          owner: err.owner,
        });
      }
      if (!asked || Date.now() > deadline) {
        logger.error(`cannot start: ${err.message}`, { owner: err.owner });
        process.exit(1);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
