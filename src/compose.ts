import type { AppDeps } from "./api/deps";
import type { Config } from "./config";
import { type Database, openDatabase } from "./db/client";
import { checkReady } from "./db/ready";
import { createInProcessQueue, type InProcessQueue } from "./jobs/in-process";
import { createQueueNotifier } from "./jobs/notifier";
import type { ProcessorDeps } from "./jobs/processors";
import { createBullQueues } from "./jobs/queues";
import { startWorkers, type Workers } from "./jobs/runner";
import type { JobSink } from "./jobs/sink";
import type { Logger } from "./lib/logger";
import { type EnrichmentNotifier, type MemoryDeps, noEnrichment } from "./memory/deps";
import { createProviders, type Providers } from "./providers";
import { type Clock, systemClock } from "./providers/types";

/** The enrichment pipeline's parts: where jobs go, and how to start workers consuming them. */
export type JobsPart = {
  /** BullMQ queues with Redis, else the in-process queue. */
  sink: JobSink & { close(): Promise<void> };
  inProcess: InProcessQueue | null;
  processorDeps: ProcessorDeps;
  /** Starts workers and the sweep in this process; closed with the system. */
  startWorkers(): Workers;
};

/** The running system's parts, built once from the config. */
export type System = {
  config: Config;
  logger: Logger;
  database: Database;
  providers: Providers;
  memory: MemoryDeps;
  app: AppDeps;
  jobs: JobsPart;
  close(): Promise<void>;
};

/** Composition root: opens the database (and migrates it), builds providers, queues and domain deps. */
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
  const jobs = composeJobs(config, logger, database, providers);
  const memory: MemoryDeps = {
    db: database.db,
    clock: overrides.clock ?? systemClock,
    embedder: providers.embedder,
    enrichment: overrides.enrichment ?? jobs.notifier,
  };
  const app: AppDeps = { config, logger, memory, ready: () => checkReady(database.db) };
  return {
    config,
    logger,
    database,
    providers,
    memory,
    app,
    jobs: jobs.part,
    async close() {
      await jobs.closeWorkers();
      await jobs.part.sink.close();
      await database.close();
    },
  };
}

function composeJobs(config: Config, logger: Logger, database: Database, providers: Providers) {
  const cfg = config.jobs;
  const inProcess = config.redisUrl
    ? null
    : createInProcessQueue({
        concurrency: cfg.concurrency,
        attempts: cfg.attempts,
        backoffMs: cfg.backoffMs,
        logger,
      });
  const sink = config.redisUrl ? createBullQueues(config.redisUrl, cfg) : (inProcess as InProcessQueue);
  const processorDeps: ProcessorDeps = {
    db: database.db,
    embedder: providers.embedder,
    importance: providers.importance,
    logger,
    claimMs: cfg.claimMs,
  };
  const embedChunk = providers.embedder.maxBatchSize;
  // Without Redis and without in-process workers nothing would consume the queue: announce nothing.
  const notifier =
    !config.redisUrl && cfg.workers === "off"
      ? noEnrichment
      : createQueueNotifier({ sink, embedChunk, logger });
  const started: Workers[] = [];
  const part: JobsPart = {
    sink,
    inProcess,
    processorDeps,
    startWorkers() {
      const queue = config.redisUrl
        ? { kind: "bullmq" as const, redisUrl: config.redisUrl }
        : { kind: "in-process" as const, queue: inProcess as InProcessQueue };
      const w = startWorkers({ cfg, deps: processorDeps, logger, sink, queue });
      started.push(w);
      return w;
    },
  };
  return {
    part,
    notifier,
    closeWorkers: () => Promise.all(started.map((w) => w.close())).then(() => undefined),
  };
}
