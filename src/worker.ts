import { serve } from "@hono/node-server";
import { createMetricsApp } from "./api/metrics-app";
import { composeSystem } from "./compose";
import { loadConfig } from "./config";
import { createLogger } from "./lib/logger";
import { createMetrics } from "./metrics";

// `npm run worker`: enrichment workers (BullMQ) and the sweep, without the HTTP API.
const config = loadConfig();
const logger = createLogger(config.logLevel, { service: "memstream-worker" });
if (!config.redisUrl) {
  logger.error("npm run worker needs REDIS_URL; without Redis the API process runs the workers itself");
  process.exit(2);
}
const system = await composeSystem(config, logger, { metrics: createMetrics() });
system.jobs.startWorkers();
// Prometheus scrapes each worker on its own port (set MEMSTREAM_WORKER_METRICS_PORT=0 to turn off).
const metricsServer =
  config.workerMetricsPort > 0
    ? serve(
        { fetch: createMetricsApp(system).fetch, port: config.workerMetricsPort, hostname: config.host },
        (info) => logger.info("worker metrics", { url: `http://${config.host}:${info.port}/metrics` }),
      )
    : null;
logger.info("worker ready", {
  embedder: system.providers.embedder.modelId,
  importance: system.providers.importance.id,
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info("shutting down: finishing jobs in hand", { signal });
  // A second signal while draining exits at once; the unfinished jobs' claims lapse and they are retried.
  process.once(signal, () => process.exit(1));
  metricsServer?.close();
  await system.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
