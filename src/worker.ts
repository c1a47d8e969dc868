import { serve } from "@hono/node-server";
import { createMetricsApp } from "./api/metrics-app";
import { composeSystem } from "./compose";
import { loadConfig } from "./config";
import { createLogger } from "./lib/logger";
import { handleProcessLifecycle } from "./lib/process";
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
        {
          fetch: createMetricsApp({ config, metrics: system.services.metrics }).fetch,
          port: config.workerMetricsPort,
          hostname: config.host,
        },
        (info) => logger.info("worker metrics", { url: `http://${config.host}:${info.port}/metrics` }),
      )
    : null;
logger.info("worker ready", {
  embedder: system.providers.embedder.modelId,
  importance: system.providers.importance.id,
});

// Finishes the jobs in hand within MEMSTREAM_SHUTDOWN_MS; past it (or on a second signal) it exits 1
// and the unfinished jobs are handed to another worker once their lock lapses.
handleProcessLifecycle({
  logger,
  deadlineMs: config.shutdownMs,
  async stop() {
    metricsServer?.close();
    await system.close();
  },
});
