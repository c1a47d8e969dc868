import { UnrecoverableError } from "bullmq";
import type { Logger } from "../lib/logger";
import type { QueueCount } from "../metrics";
import { JOB_NAMES, type JobName, type JobRequest } from "./catalog";
import type { JobSink } from "./sink";

/** `again`: enqueued once more while running; runs again after this run (see `enqueue`). */
type Entry = JobRequest & { attempt: number; notBefore: number; again?: JobRequest };

/** Runs one job attempt (1-based); throws to retry. */
export type RunJob = (job: JobRequest, attempt: number) => Promise<unknown>;

export type InProcessQueue = JobSink & {
  /** Starts consuming with `run`; `concurrency` jobs at once per job name. */
  start(run: RunJob): void;
  /** Stops taking jobs and waits for the running ones; queued ones are dropped (the sweep re-finds them). */
  close(): Promise<void>;
  /** Jobs queued or running (benchmarks and tests). */
  size(): number;
  /** Jobs per name and state, for the queue-depth metric (the same states as BullMQ's). */
  counts(): QueueCount[];
  /** Resolves once no job is queued, backing off or running (tests). */
  idle(): Promise<void>;
};

/**
 * The zero-config queue (no Redis): the same jobs, ids and processors as BullMQ, in memory.
 * Same semantics where they matter: a job id already queued is not added twice, failures retry
 * with exponential backoff up to `attempts`, `UnrecoverableError` does not retry. One difference:
 * a job id enqueued while it runs runs once more afterwards, where BullMQ drops the add. Why: a
 * run may have read the database before the write that enqueued it (an outcome recorded while
 * its consolidation finishes), and the sweep that re-finds such work comes minutes later.
 * Losing it on restart loses nothing: the rows stay pending and the sweep re-enqueues them.
 */
export function createInProcessQueue(opts: {
  concurrency: number;
  /** Attempts of a job by name (the catalog's policy). */
  attempts: (name: JobName) => number;
  /** Backoff base, or per job name (the catalog's policy). */
  backoffMs: number | ((name: JobName) => number);
  logger: Logger;
}): InProcessQueue {
  const entries = new Map<string, Entry>();
  const running = new Set<string>();
  const inflight = new Set<Promise<void>>();
  let run: RunJob | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  const waiters: (() => void)[] = [];

  const busy = (name: JobName) => [...running].filter((id) => entries.get(id)?.name === name).length;

  function pump() {
    if (!run || closed) return;
    const now = Date.now();
    let wake = Number.POSITIVE_INFINITY;
    for (const e of entries.values()) {
      if (running.has(e.id)) continue;
      if (e.notBefore > now) {
        wake = Math.min(wake, e.notBefore);
        continue;
      }
      if (busy(e.name) >= opts.concurrency) continue;
      execute(e, run);
    }
    if (timer) clearTimeout(timer);
    timer = Number.isFinite(wake) ? setTimeout(pump, wake - now) : null;
  }

  /** A job done (or finally failed): gone, unless enqueued again while it ran. */
  function settle(e: Entry) {
    if (e.again) entries.set(e.id, { ...e.again, attempt: 0, notBefore: 0 });
    else entries.delete(e.id);
  }

  function execute(e: Entry, fn: RunJob) {
    running.add(e.id);
    e.attempt++;
    const p = fn(e, e.attempt)
      .then(() => settle(e))
      .catch((err: unknown) => {
        const final = err instanceof UnrecoverableError || e.attempt >= opts.attempts(e.name);
        opts.logger.warn(final ? "job failed" : "job attempt failed", {
          job: e.name,
          id: e.id,
          attempt: e.attempt,
          error: err instanceof Error ? err.message : String(err),
        });
        if (final) return settle(e);
        // The retry reads the database afresh: it covers an `again` too.
        e.again = undefined;
        const base = typeof opts.backoffMs === "number" ? opts.backoffMs : opts.backoffMs(e.name);
        e.notBefore = Date.now() + base * 2 ** (e.attempt - 1);
      })
      .finally(() => {
        running.delete(e.id);
        inflight.delete(p);
        pump();
        if (entries.size === 0) for (const w of waiters.splice(0)) w();
      });
    inflight.add(p);
  }

  return {
    async enqueue(jobs) {
      if (closed) return;
      for (const j of jobs) {
        const e = entries.get(j.id);
        if (!e) entries.set(j.id, { ...j, attempt: 0, notBefore: 0 });
        else if (running.has(j.id)) e.again = j;
      }
      pump();
    },
    start(fn) {
      run = fn;
      pump();
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await Promise.allSettled([...inflight]);
      entries.clear();
      for (const w of waiters.splice(0)) w();
    },
    size: () => entries.size,
    counts() {
      const now = Date.now();
      // A final failure is dropped at once (as BullMQ's removeOnFail): failed is always 0 here,
      // reported so both queues give the same series; the failure itself is on the database row.
      const zero = () => ({ waiting: 0, active: 0, delayed: 0, failed: 0 });
      const by = new Map(JOB_NAMES.map((n) => [n, zero()]));
      for (const e of entries.values()) {
        const c = by.get(e.name) ?? zero();
        if (running.has(e.id)) c.active++;
        else if (e.notBefore > now) c.delayed++;
        else c.waiting++;
      }
      return [...by].flatMap(([job, c]) =>
        Object.entries(c).map(([state, count]) => ({ job, state, count })),
      );
    },
    idle: () => (entries.size === 0 ? Promise.resolve() : new Promise<void>((r) => waiters.push(r))),
  };
}
