import type { AppDeps } from "./api/deps";
import type { Config } from "./config";
import { type Database, openDatabase } from "./db/client";
import { checkReady } from "./db/ready";
import type { DeliveryProcessor, IngestDeps } from "./ingest/github/deps";
import {
  createInProcessImportQueue,
  type InProcessImportQueue,
} from "./ingest/github/import/in-process-imports";
import { createInProcessDeliveryProcessor } from "./ingest/github/in-process-processor";
import { composeJobs, type JobsPart } from "./jobs/compose";
import type { Logger } from "./lib/logger";
import { type EnrichmentNotifier, type MemoryDeps, noReflection } from "./memory/deps";
import {
  createInProcessReflectionScheduler,
  type InProcessReflectionScheduler,
} from "./memory/reflect/scheduler";
import { maybeReflect } from "./memory/reflect/should-reflect";
import type { ReflectAgentDeps } from "./memory/reflect/types";
import { createMetrics, type Metrics, recordReflectionRun } from "./metrics";
import { createProviders, type Providers } from "./providers";
import { type Clock, systemClock } from "./providers/types";

export type { JobsPart } from "./jobs/compose";

/** The running system's parts, built once from the config. */
export type System = {
  config: Config;
  logger: Logger;
  metrics: Metrics;
  database: Database;
  providers: Providers;
  memory: MemoryDeps;
  /** GitHub ingestion: what processing needs, where accepted deliveries and opened imports are sent. */
  github: { deps: IngestDeps; deliveries: DeliveryProcessor; imports: InProcessImportQueue };
  /** Memory deps plus the chat model and default threshold, for reflection. */
  reflect: ReflectAgentDeps;
  /** Runs threshold reflections in this process, one at a time per agent. */
  reflections: InProcessReflectionScheduler;
  app: AppDeps;
  jobs: JobsPart;
  close(): Promise<void>;
};

/** Composition root: opens the database (and migrates it), builds providers, queues and domain deps. */
export async function composeSystem(
  config: Config,
  logger: Logger,
  overrides: {
    clock?: Clock;
    enrichment?: EnrichmentNotifier;
    providers?: Providers;
    /** The process's metrics; the entry points pass one with process metrics, tests a bare one. */
    metrics?: Metrics;
    /** Another delivery processor; by default deliveries are processed in this process. */
    deliveries?: (deps: IngestDeps) => DeliveryProcessor;
  } = {},
): Promise<System> {
  const metrics = overrides.metrics ?? createMetrics({ defaultMetrics: false });
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
  // Reflection runs in whichever process learns of new importance (API or worker); a unique
  // index on running runs keeps it to one per agent across processes. Off without an LLM.
  const reflections = createInProcessReflectionScheduler((agentId) => maybeReflect(reflect, agentId), logger);
  const reflection = providers.chat ? reflections : noReflection;
  const jobs = composeJobs(config, logger, database, providers, reflection);
  const memory: MemoryDeps = {
    db: database.db,
    clock: overrides.clock ?? systemClock,
    embedder: providers.embedder,
    enrichment: overrides.enrichment ?? jobs.notifier,
    reflection,
    retrieval: config.retrieval,
  };
  const reflect: ReflectAgentDeps = {
    ...memory,
    chat: providers.chat,
    reflectionThreshold: config.reflectionThreshold,
    onRunFinished: (run) => recordReflectionRun(metrics, run),
  };
  const ingest: IngestDeps = { memory, routes: config.github.routes, logger };
  const inProcess = overrides.deliveries ? null : createInProcessDeliveryProcessor(ingest);
  const deliveries = overrides.deliveries?.(ingest) ?? (inProcess as DeliveryProcessor);
  const imports = createInProcessImportQueue(ingest, {
    token: config.github.token,
    baseUrl: config.github.apiUrl,
  });
  const app: AppDeps = {
    config,
    logger,
    metrics,
    queues: jobs.part.queues,
    memory,
    reflect,
    deliveries,
    imports,
    ready: () => checkReady(database.db),
  };
  return {
    config,
    logger,
    metrics,
    database,
    providers,
    memory,
    reflect,
    reflections,
    github: { deps: ingest, deliveries, imports },
    app,
    jobs: jobs.part,
    async close() {
      // Workers, background reflections and deliveries finish before their database goes away.
      await jobs.closeWorkers();
      await Promise.all([reflections.idle(), inProcess?.drain(), imports.drain()]);
      await jobs.part.sink.close();
      await database.close();
    },
  };
}
