import { composeSystem } from "./compose";
import { loadConfig } from "./config";
import { createLogger } from "./lib/logger";

// `npm run worker`: enrichment workers (BullMQ) and the sweep, without the HTTP API.
const config = loadConfig();
const logger = createLogger(config.logLevel, { service: "memstream-worker" });
if (!config.redisUrl) {
  logger.error("npm run worker needs REDIS_URL; without Redis the API process runs the workers itself");
  process.exit(2);
}
const system = await composeSystem(config, logger);
system.jobs.startWorkers();
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
  await system.close();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
