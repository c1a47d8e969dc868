import { Worker } from "bullmq";
import type { JobsConfig } from "../config";
import { timeJob } from "../metrics";
import type { Services } from "../services";
import { JOB_NAMES, type JobName, jobAttempts } from "./catalog";
import type { InProcessQueue } from "./in-process";
import { type JobRun, runJob } from "./processors";
import { type RedisTarget, workerConnection } from "./queues";
import type { JobSink } from "./sink";
import { startSweep } from "./sweep";

/** Running workers; `close` stops taking jobs, lets the current ones finish, closes connections. */
export type Workers = { close(): Promise<void> };

export type StartWorkers = {
  cfg: JobsConfig;
  /** The services the processors run with (their logger and metrics are the workers'). */
  deps: Services;
  /** Where the sweep enqueues (the same queues the workers consume). */
  sink: JobSink;
  /** Redis: BullMQ workers. Otherwise the in-process queue is consumed here. */
  queue: { kind: "bullmq"; redis: RedisTarget } | { kind: "in-process"; queue: InProcessQueue };
};

/** Starts the processors of every job in the catalog (BullMQ workers or the in-process queue) and the periodic sweep. */
export function startWorkers(opts: StartWorkers): Workers {
  const { cfg, deps } = opts;
  const logger = deps.logger;
  // The one place both queues run a processor: every attempt is timed here, labelled with the
  // catalog name of its queue (a bounded set, whatever name the job itself carries).
  const run = (queue: JobName, name: string, data: unknown, job: JobRun) =>
    timeJob(deps.metrics, queue, () => runJob(deps, name, data, job));
  const sweep = startSweep({
    db: deps.db,
    clock: deps.clock,
    sink: opts.sink,
    deliveryAttempts: jobAttempts("github.deliver", cfg),
    afterMs: cfg.sweepAfterMs,
    limit: cfg.sweepLimit,
    retentionIntervalMs: cfg.retentionIntervalMs,
    embedChunk: deps.embedder.maxBatchSize,
    intervalMs: cfg.sweepIntervalMs,
    logger,
  });

  if (opts.queue.kind === "in-process") {
    const q = opts.queue.queue;
    // In memory a job dies with its process, so an attempt is never resumed.
    q.start((job, attempt) =>
      run(job.name, job.name, job.payload, {
        jobId: job.id,
        attempt,
        maxAttempts: jobAttempts(job.name, cfg),
        resumed: false,
      }),
    );
    return {
      async close() {
        await sweep.stop();
        await q.close();
      },
    };
  }

  const { redis } = opts.queue;
  const workers = JOB_NAMES.map((name) => {
    const connection = workerConnection(redis);
    const worker = new Worker(
      name,
      (job) => {
        const attempt: JobRun = {
          jobId: job.id ?? "",
          attempt: job.attemptsMade + 1,
          maxAttempts: job.opts.attempts ?? 1,
          // Started more often than failed, plus this start: an earlier start stalled (its worker died).
          resumed: job.attemptsStarted > job.attemptsMade + 1,
        };
        logger.debug("job started", {
          job: name,
          ...attempt,
          started: job.attemptsStarted,
          stalled: job.stalledCounter,
        });
        return run(name, job.name, job.data, attempt);
      },
      {
        connection,
        prefix: cfg.queuePrefix,
        concurrency: cfg.concurrency,
        lockDuration: cfg.lockMs,
        // A dead worker's job is handed back within one lock period, not the default 30 s check.
        stalledInterval: cfg.lockMs,
      },
    );
    worker.on("failed", (job, err) =>
      logger.warn("job attempt failed", {
        job: name,
        id: job?.id,
        attempt: job?.attemptsMade,
        error: err.message,
      }),
    );
    // Without a listener a Redis hiccup would crash the process; the worker reconnects by itself.
    worker.on("error", (err) => logger.warn("worker error", { job: name, error: err.message }));
    return { worker, connection };
  });
  logger.info("workers started", {
    queues: JOB_NAMES,
    concurrency: cfg.concurrency,
    prefix: cfg.queuePrefix,
  });
  return {
    async close() {
      await sweep.stop();
      // close() waits for the jobs in hand to finish; new ones are no longer taken.
      await Promise.all(workers.map((w) => w.worker.close()));
      for (const w of workers) w.connection.disconnect();
    },
  };
}
