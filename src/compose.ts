import type { AppDeps } from "./api/deps";
import type { Config } from "./config";
import { type Database, openDatabase } from "./db/client";
import { checkReady } from "./db/ready";
import type { DeliveryProcessor, IngestDeps } from "./ingest/github/deps";
import { createInProcessDeliveryProcessor } from "./ingest/github/in-process-processor";
import type { Logger } from "./lib/logger";
import { type EnrichmentNotifier, type MemoryDeps, noEnrichment, noReflection } from "./memory/deps";
import {
  createInProcessReflectionScheduler,
  type InProcessReflectionScheduler,
} from "./memory/reflect/scheduler";
import { maybeReflect } from "./memory/reflect/should-reflect";
import type { ReflectAgentDeps } from "./memory/reflect/types";
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
  /** Memory deps plus the chat model and default threshold, for reflection. */
  reflect: ReflectAgentDeps;
  /** Runs threshold reflections in this process (until the job system takes this over). */
  reflections: InProcessReflectionScheduler;
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
  // The seam for the job system: replace this scheduler with one that enqueues a per-agent job
  // (deterministic id) whose processor calls `maybeReflect(reflect, agentId)`.
  const reflections = createInProcessReflectionScheduler((agentId) => maybeReflect(reflect, agentId), logger);
  const memory: MemoryDeps = {
    db: database.db,
    clock: overrides.clock ?? systemClock,
    embedder: providers.embedder,
    enrichment: overrides.enrichment ?? noEnrichment,
    // Without an LLM reflection is off: nothing is scheduled at all.
    reflection: providers.chat ? reflections : noReflection,
  };
  const reflect: ReflectAgentDeps = {
    ...memory,
    chat: providers.chat,
    reflectionThreshold: config.reflectionThreshold,
  };
  const ingest: IngestDeps = { memory, routes: config.github.routes, logger };
  const inProcess = overrides.deliveries ? null : createInProcessDeliveryProcessor(ingest);
  const deliveries = overrides.deliveries?.(ingest) ?? (inProcess as DeliveryProcessor);
  const app: AppDeps = { config, logger, memory, reflect, deliveries, ready: () => checkReady(database.db) };
  return {
    config,
    logger,
    database,
    providers,
    memory,
    reflect,
    reflections,
    github: { deps: ingest, deliveries },
    app,
    async close() {
      // Background reflections and deliveries finish before their database goes away.
      await Promise.all([reflections.idle(), inProcess?.drain()]);
      await database.close();
    },
  };
}
