import type { AppDeps } from "./api/deps";
import type { Config } from "./config";
import { type Database, openDatabase } from "./db/client";
import { checkReady } from "./db/ready";
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
  app: AppDeps;
  close(): Promise<void>;
};

/** Composition root: opens the database (and migrates it), builds providers and domain deps. */
export async function composeSystem(
  config: Config,
  logger: Logger,
  overrides: { clock?: Clock; enrichment?: EnrichmentNotifier; providers?: Providers } = {},
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
    retrieval: config.retrieval,
  };
  const app: AppDeps = { config, logger, memory, ready: () => checkReady(database.db) };
  return { config, logger, database, providers, memory, app, close: () => database.close() };
}
