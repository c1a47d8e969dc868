import type { Queue } from "bullmq";
import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Logger } from "../lib/logger";
import { type EnrichmentNotifier, noEnrichment, type ReflectionScheduler } from "../memory/deps";
import type { Providers } from "../providers";
import { createInProcessQueue, type InProcessQueue } from "./in-process";
import { createQueueNotifier } from "./notifier";
import type { ProcessorDeps } from "./processors";
import { createBullQueues } from "./queues";
import { startWorkers, type Workers } from "./runner";
import type { JobSink } from "./sink";

/** The enrichment pipeline's parts: where jobs go, and how to start workers consuming them. */
export type JobsPart = {
  /** BullMQ queues with Redis, else the in-process queue. */
  sink: JobSink & { close(): Promise<void> };
  inProcess: InProcessQueue | null;
  /** The BullMQ queues (for the dashboard and queue-depth metrics); null without Redis. */
  queues: Queue[] | null;
  processorDeps: ProcessorDeps;
  /** Starts workers and the sweep in this process; closed with the system. */
  startWorkers(): Workers;
};

/** Builds queues (BullMQ with Redis, in-process without), the notifier and the worker starter. */
export function composeJobs(
  config: Config,
  logger: Logger,
  database: Database,
  providers: Providers,
  reflection: ReflectionScheduler,
): { part: JobsPart; notifier: EnrichmentNotifier; closeWorkers(): Promise<void> } {
  const cfg = config.jobs;
  const inProcess = config.redisUrl
    ? null
    : createInProcessQueue({
        concurrency: cfg.concurrency,
        attempts: cfg.attempts,
        backoffMs: cfg.backoffMs,
        logger,
      });
  const bull = config.redisUrl ? createBullQueues(config.redisUrl, cfg) : null;
  const sink = bull ?? (inProcess as InProcessQueue);
  const processorDeps: ProcessorDeps = {
    db: database.db,
    embedder: providers.embedder,
    importance: providers.importance,
    logger,
    claimMs: cfg.claimMs,
    reflection,
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
    queues: bull ? Object.values(bull.queues) : null,
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
