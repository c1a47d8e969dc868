import { Queue } from "bullmq";
import { Cluster, Redis, type RedisOptions } from "ioredis";
import type { JobsConfig } from "../config";
import type { QueueCount } from "../metrics";
import { JOB_NAMES, type JobName, type JobPolicy, type JobRequest, jobOptions } from "./catalog";
import type { JobSink } from "./sink";

/** Where the queues live: one Redis, or a Redis Cluster reached through `url` as its seed node. */
export type RedisTarget = { url: string; cluster: boolean };

/**
 * Redis connection for workers, per BullMQ's production notes: `maxRetriesPerRequest: null`
 * so blocking commands wait out a Redis restart instead of throwing, and reconnect forever.
 */
export function workerConnection(target: RedisTarget): Redis | Cluster {
  return connect(target, { maxRetriesPerRequest: null, retryStrategy: (n) => Math.min(n * 200, 5_000) });
}

/**
 * Connection for producers (the API): no offline queue, so an add fails at once while Redis is
 * down and the POST still answers fast; the sweep enqueues the work later.
 */
export function producerConnection(target: RedisTarget): Redis | Cluster {
  return connect(target, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (n) => Math.min(n * 200, 5_000),
  });
}

/**
 * On a cluster, ioredis discovers every node from the seed and follows MOVED redirects; BullMQ's
 * scripts work there because the queue prefix carries a hash tag (config: REDIS_CLUSTER), which puts
 * every key of every queue in one slot.
 */
function connect(target: RedisTarget, opts: RedisOptions): Redis | Cluster {
  if (!target.cluster) return new Redis(target.url, opts);
  const u = new URL(target.url);
  const { enableOfflineQueue, retryStrategy, ...redisOptions } = opts;
  return new Cluster([{ host: u.hostname, port: Number(u.port || 6379) }], {
    enableOfflineQueue,
    clusterRetryStrategy: retryStrategy,
    redisOptions: {
      ...redisOptions,
      username: u.username ? decodeURIComponent(u.username) : undefined,
      password: u.password ? decodeURIComponent(u.password) : undefined,
      tls: u.protocol === "rediss:" ? {} : undefined,
    },
  });
}

export type BullQueues = JobSink & {
  queues: Record<JobName, Queue>;
  /** Jobs per name and state, for the queue-depth metric (throws or hangs while Redis does). */
  counts(): Promise<QueueCount[]>;
  close(): Promise<void>;
};

/** The states the queue-depth metric reports (finished jobs are removed, see `jobOptions`). */
export const DEPTH_STATES = ["waiting", "active", "delayed", "failed"] as const;

/** One BullMQ queue per job name (each gets its own workers and concurrency), sharing one connection. */
export function createBullQueues(target: RedisTarget, cfg: Pick<JobsConfig, "queuePrefix"> & JobPolicy) {
  const connection = producerConnection(target);
  // Errors surface on each add; without a listener ioredis would also print them unhandled.
  connection.on("error", () => {});
  const queues = Object.fromEntries(
    JOB_NAMES.map((n) => [
      n,
      new Queue(n, { connection, prefix: cfg.queuePrefix, defaultJobOptions: jobOptions(n, cfg) }),
    ]),
  ) as Record<JobName, Queue>;
  for (const q of Object.values(queues)) q.on("error", () => {});
  const sink: BullQueues = {
    queues,
    async enqueue(jobs: JobRequest[]) {
      for (const name of JOB_NAMES) {
        const mine = jobs.filter((j) => j.name === name);
        if (mine.length === 0) continue;
        await queues[name].addBulk(mine.map((j) => ({ name, data: j.payload, opts: { jobId: j.id } })));
      }
    },
    async counts() {
      const per = await Promise.all(
        JOB_NAMES.map(async (job) => {
          const c = await queues[job].getJobCounts(...DEPTH_STATES);
          return DEPTH_STATES.map((state) => ({ job, state, count: c[state] ?? 0 }));
        }),
      );
      return per.flat();
    },
    async close() {
      // Bounded: with Redis down, close would otherwise wait for a connection that never comes.
      const closing = Promise.all(JOB_NAMES.map((n) => queues[n].close()));
      await Promise.race([closing, new Promise((r) => setTimeout(r, 2_000).unref())]);
      connection.disconnect();
    },
  };
  return sink;
}
