import type { AppDeps } from "./api/deps";
import type { Config } from "./config";
import { type Database, openDatabase } from "./db/client";
import { checkReady } from "./db/ready";
import type { DeliveryProcessor, IngestDeps } from "./ingest/github/deps";
import { createInProcessDeliveryProcessor } from "./ingest/github/in-process-processor";
import type { Logger } from "./lib/logger";
import { type EnrichmentNotifier, type MemoryDeps, noEnrichment } from "./memory/deps";
import { createProviders, type Providers } from "./providers";
import { type Clock, systemClock } from "./providers/types";

/** The running system's parts, built once from the config. */
export type System = {
  config: Config;
  logger: Logger;
  database: Database;
  providers: Providers;
  memory: MemoryDeps;
  /** GitHub ingestion: what processing needs, and where accepted deliveries are sent. */
  github: { deps: IngestDeps; deliveries: DeliveryProcessor };
  app: AppDeps;
  close(): Promise<void>;
};

/** Composition root: opens the database (and migrates it), builds providers and domain deps. */
export async function composeSystem(
  config: Config,
  logger: Logger,
  overrides: {
    clock?: Clock;
    enrichment?: EnrichmentNotifier;
    providers?: Providers;
    /** The job system's processor; by default deliveries are processed in this process. */
    deliveries?: (deps: IngestDeps) => DeliveryProcessor;
  } = {},
): Promise<System> {
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  await database.migrate();
  const providers =
    overrides.providers ??
    (await createProviders({
      openai: config.openai ?? undefined,
      embedding: config.embedding,
      llm: config.llm ?? undefined,
      importanceExamples: config.importanceExamples ?? undefined,
    }));
  const memory: MemoryDeps = {
    db: database.db,
    clock: overrides.clock ?? systemClock,
    embedder: providers.embedder,
    enrichment: overrides.enrichment ?? noEnrichment,
  };
  const ingest: IngestDeps = { memory, routes: config.github.routes, logger };
  const inProcess = overrides.deliveries ? null : createInProcessDeliveryProcessor(ingest);
  const deliveries = overrides.deliveries?.(ingest) ?? (inProcess as DeliveryProcessor);
  const app: AppDeps = { config, logger, memory, deliveries, ready: () => checkReady(database.db) };
  const close = async () => {
    // Deliveries being processed in this process finish before the database goes away.
    await inProcess?.drain();
    await database.close();
  };
  return { config, logger, database, providers, memory, github: { deps: ingest, deliveries }, app, close };
}
