import type { Queue } from "bullmq";
import type { Config } from "../config";
import type { Core } from "../core";
import type { Services } from "../services";
import { jobAttempts, jobBackoffMs } from "./catalog";
import { createInProcessQueue, type InProcessQueue } from "./in-process";
import { createBullQueues } from "./queues";
import { startWorkers, type Workers } from "./runner";
import type { JobSink } from "./sink";

/** The job system's parts: where jobs go and how to start workers. */
export type JobsPart = {
  /** BullMQ queues with Redis, else the in-process queue (a dropping sink when nothing consumes it). */
  sink: JobSink & { close(): Promise<void> };
  inProcess: InProcessQueue | null;
  /** The BullMQ queues (for the dashboard and queue-depth metrics); null without Redis. */
  queues: Queue[] | null;
  /** Starts workers and the sweep in this process; closed with the system. */
  startWorkers(): Workers;
};

/** Enqueues nothing: without Redis and without workers in this process, nobody would run the jobs. */
const dropping: JobSink & { close(): Promise<void> } = { enqueue: async () => {}, close: async () => {} };

/**
 * Builds the queues: BullMQ with Redis; without it an in-process queue (or nothing, with workers
 * off). The queue in use reports its depth to `metrics` at scrape time.
 */
export function composeQueues(
  config: Config,
  { logger, metrics }: Pick<Core, "logger" | "metrics">,
): Pick<JobsPart, "sink" | "inProcess" | "queues"> {
  const cfg = config.jobs;
  if (config.redisUrl) {
    const bull = createBullQueues({ url: config.redisUrl, cluster: config.redisCluster }, cfg);
    metrics.readQueueDepthFrom(() => bull.counts());
    return { sink: bull, inProcess: null, queues: Object.values(bull.queues) };
  }
  if (cfg.workers === "off") return { sink: dropping, inProcess: null, queues: null };
  const inProcess = createInProcessQueue({
    concurrency: cfg.concurrency,
    attempts: (name) => jobAttempts(name, cfg),
    backoffMs: (name) => jobBackoffMs(name, cfg),
    logger,
  });
  metrics.readQueueDepthFrom(async () => inProcess.counts());
  return { sink: inProcess, inProcess, queues: null };
}

/** The worker starter over built queues; `closeWorkers` stops every started set. */
export function composeWorkers(
  config: Config,
  queues: Pick<JobsPart, "sink" | "inProcess" | "queues">,
  deps: Services,
): { part: JobsPart; closeWorkers(): Promise<void> } {
  const started: Workers[] = [];
  const part: JobsPart = {
    ...queues,
    startWorkers() {
      const queue = config.redisUrl
        ? { kind: "bullmq" as const, redis: { url: config.redisUrl, cluster: config.redisCluster } }
        : queues.inProcess
          ? { kind: "in-process" as const, queue: queues.inProcess }
          : null;
      if (!queue) throw new Error("MEMSTREAM_WORKERS=off without REDIS_URL: there is no queue to consume");
      const w = startWorkers({ cfg: config.jobs, deps, sink: queues.sink, queue });
      started.push(w);
      return w;
    },
  };
  return {
    part,
    closeWorkers: () => Promise.all(started.map((w) => w.close())).then(() => undefined),
  };
}
