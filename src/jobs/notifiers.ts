import type { DeliveryProcessor, ImportQueue } from "../ingest/github/deps";
import type { Logger } from "../lib/logger";
import type {
  EnrichmentNotifier,
  LearningScheduler,
  OutcomeScheduler,
  PendingWork,
  ReflectionScheduler,
  SupersessionScheduler,
} from "../memory/deps";
import { chunk } from "../providers/batching";
import { type JobRequest, jobRequest, SCORE_CHUNK } from "./catalog";
import type { JobSink } from "./sink";

/**
 * The seams the domain calls after a write commits, implemented as enqueues. They never throw:
 * the database already holds the work, so a lost enqueue (Redis down) is found by the sweep.
 */

/** A write waits at most this long for Redis; past it the sweep takes over. */
const ENQUEUE_TIMEOUT_MS = 1_000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`queue did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Enqueues within the bound; logs instead of throwing. */
async function announce(sink: JobSink, logger: Logger, jobs: JobRequest[], what: Record<string, unknown>) {
  if (jobs.length === 0) return;
  try {
    await withTimeout(sink.enqueue(jobs), ENQUEUE_TIMEOUT_MS);
  } catch (err) {
    logger.warn("enqueue failed; the database still holds the work (sweep, next write)", {
      ...what,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

/** Splits pending memories into embed and score jobs of the given chunk sizes. */
export function pendingJobs(items: readonly PendingWork[], embedChunk: number): JobRequest[] {
  const refs = items.map((i) => ({ memoryId: i.memoryId, agentId: i.agentId, revision: i.revision }));
  // Both jobs for every memory: each processor claims only rows pending for its own field,
  // so a job for a field the caller already supplied is a cheap no-op without a provider call.
  return [
    ...chunk(refs, embedChunk).map((c) => jobRequest("memories.embed", { items: c })),
    ...chunk(refs, SCORE_CHUNK).map((c) => jobRequest("memories.score", { items: c })),
  ];
}

/** Pending enrichment → `memories.embed` and `memories.score` jobs. */
export function createQueueNotifier(opts: {
  sink: JobSink;
  embedChunk: number;
  logger: Logger;
}): EnrichmentNotifier {
  return {
    pending: (items) =>
      announce(opts.sink, opts.logger, pendingJobs(items, opts.embedChunk), { memories: items.length }),
  };
}

/**
 * New importance → an `agent.reflect` job when the agent is due (threshold reached, not backing
 * off after a failed run). The check is one indexed sum, so the job is only enqueued when it will
 * reflect; the job id is per agent, so announcements while it is queued or running collapse.
 */
export function createReflectionNotifier(opts: {
  sink: JobSink;
  due: (agentId: string) => Promise<boolean>;
  logger: Logger;
}): ReflectionScheduler {
  return {
    async importanceAdded(agentId) {
      let due: boolean;
      try {
        due = await opts.due(agentId);
      } catch (err) {
        // Never fail the write that added importance; the next one checks again.
        opts.logger.warn("reflection threshold check failed", { agentId, error: String(err) });
        return;
      }
      if (due)
        await announce(opts.sink, opts.logger, [jobRequest("agent.reflect", { agentId })], { agentId });
    },
  };
}

/** An accepted GitHub delivery → a `github.deliver` job (job id from the delivery id). */
export function createDeliveryNotifier(opts: { sink: JobSink; logger: Logger }): DeliveryProcessor {
  return {
    enqueue: (deliveryId) =>
      announce(opts.sink, opts.logger, [jobRequest("github.deliver", { deliveryId })], { deliveryId }),
  };
}

/** An opened repository import → a `github.import` job (job id from the import id). */
export function createImportNotifier(opts: { sink: JobSink; logger: Logger }): ImportQueue {
  return {
    enqueue: (ref) => announce(opts.sink, opts.logger, [jobRequest("github.import", ref)], ref),
  };
}

/** A recorded outcome → an `outcomes.consolidate` job for its agent and task type. */
export function createOutcomeNotifier(opts: { sink: JobSink; logger: Logger }): OutcomeScheduler {
  return {
    recorded: (agentId, taskType) =>
      announce(opts.sink, opts.logger, [jobRequest("outcomes.consolidate", { agentId, taskType })], {
        agentId,
        taskType,
      }),
  };
}

/** Feedback enough for a fit → an `agent.learn` job (one per agent while queued). */
export function createLearningNotifier(opts: { sink: JobSink; logger: Logger }): LearningScheduler {
  return {
    feedbackGiven: (agentId) =>
      announce(opts.sink, opts.logger, [jobRequest("agent.learn", { agentId })], { agentId }),
  };
}

/** Memories with a vector → `memories.supersede` jobs, in chunks of SCORE_CHUNK (one LLM call per memory). */
export function createSupersessionNotifier(opts: { sink: JobSink; logger: Logger }): SupersessionScheduler {
  return {
    embedded: (items) =>
      announce(
        opts.sink,
        opts.logger,
        chunk(
          items.map((i) => ({ memoryId: i.memoryId, agentId: i.agentId, revision: i.revision })),
          SCORE_CHUNK,
        ).map((c) => jobRequest("memories.supersede", { items: c })),
        { memories: items.length },
      ),
  };
}
