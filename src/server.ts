import { serve } from "@hono/node-server";
import { createApp } from "./api/app";
import { composeSystem } from "./compose";
import { loadConfig } from "./config";
import { createLogger } from "./lib/logger";
import { createMetrics } from "./metrics";

// `npm start`: the HTTP API. Without DATABASE_URL it runs on embedded PGlite (zero-config).
const config = loadConfig();
const logger = createLogger(config.logLevel, { service: "memstream-api" });
const system = await composeSystem(config, logger, { metrics: createMetrics() });
const app = createApp(system.app);
// Small installs run the workers here too; with `npm run worker` elsewhere set MEMSTREAM_WORKERS=off.
if (config.jobs.workers === "in-process") system.jobs.startWorkers();
else if (!config.redisUrl)
  logger.warn("MEMSTREAM_WORKERS=off without REDIS_URL: nothing will fill in importance and embeddings");

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
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

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info("shutting down", { signal });
  server.close();
  // Workers and the sweep finish what they hold before the database closes.
  await system.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
