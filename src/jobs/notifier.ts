import type { Logger } from "../lib/logger";
import type { EnrichmentNotifier, PendingWork } from "../memory/deps";
import { chunk } from "../providers/batching";
import { type JobRequest, jobRequest, SCORE_CHUNK } from "./catalog";
import type { JobSink } from "./sink";

/** A write waits at most this long for Redis; past it the sweep takes over. */
const ENQUEUE_TIMEOUT_MS = 1_000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`queue did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Splits pending memories into embed and score jobs of the given chunk sizes. */
export function pendingJobs(items: readonly PendingWork[], embedChunk: number): JobRequest[] {
  const refs = items.map((i) => ({ memoryId: i.memoryId, revision: i.revision, agentId: i.agentId }));
  // Both jobs for every memory: each processor claims only rows pending for its own field,
  // so a job for a field the caller already supplied is a cheap no-op without a provider call.
  return [
    ...chunk(refs, embedChunk).map((c) => jobRequest("memories.embed", c)),
    ...chunk(refs, SCORE_CHUNK).map((c) => jobRequest("memories.score", c)),
  ];
}

/**
 * The notifier the domain calls after a write commits: enqueues jobs at once. It never throws;
 * if the queue is unreachable it logs and the periodic sweep enqueues the work later.
 */
export function createQueueNotifier(opts: {
  sink: JobSink;
  embedChunk: number;
  logger: Logger;
}): EnrichmentNotifier {
  return {
    async pending(items) {
      if (items.length === 0) return;
      try {
        await withTimeout(opts.sink.enqueue(pendingJobs(items, opts.embedChunk)), ENQUEUE_TIMEOUT_MS);
      } catch (err) {
        opts.logger.warn("enqueue failed; the sweep will pick these up", {
          memories: items.length,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    },
  };
}
