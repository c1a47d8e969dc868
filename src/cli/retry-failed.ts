import { parseArgs } from "node:util";
import { composeSystem } from "../compose";
import { loadConfig } from "../config";
import { createLogger } from "../lib/logger";
import { retryFailed } from "../memory/enrichment/retry";

// `npm run retry-failed -- [--agent <id>]`: puts failed enrichment back to pending and enqueues it.
// Without REDIS_URL the running API's sweep picks the rows up (this process has no queue to share).
const { values } = parseArgs({ options: { agent: { type: "string" } } });
const config = loadConfig();
const logger = createLogger(config.logLevel, { service: "memstream-retry" });
const system = await composeSystem(config, logger);
try {
  const result = await retryFailed(system.services, values.agent ?? null);
  logger.info("failed enrichment reset to pending", { agent: values.agent ?? "all", ...result });
} finally {
  await system.close();
}
