import type { Core } from "../core";
import type { Keyset } from "../db/keyset";
import { unfinishedImports } from "../ingest/github/import/unfinished-imports";
import { unfinishedDeliveries } from "../ingest/github/unfinished-deliveries";
import type { Logger } from "../lib/logger";
import { agentsWithExpired } from "../memory/deletion/purge-expired";
import { type StalePending, stalePending } from "../memory/enrichment/stale";
import { unconsolidatedTaskTypes } from "../memory/lessons/unconsolidated";
import { agentsDueForRetention } from "../memory/retention/retain";
import { chunk } from "../providers/batching";
import { type JobRequest, jobRequest, SCORE_CHUNK } from "./catalog";
import type { JobSink } from "./sink";

/** The core's database and clock (the sweep's "now": staleness is measured on the clock that wrote the rows). */
export type SweepOptions = Pick<Core, "db" | "clock"> & {
  sink: JobSink;
  afterMs: number;
  limit: number;
  embedChunk: number;
  /** A failed delivery is re-enqueued while its failed attempts are below this. */
  deliveryAttempts: number;
  /** Agents with a retention policy get an `agent.retain` job once their last run is this old; absent = none. */
  retentionIntervalMs?: number;
};

/**
 * The one sweep: the database is the source of truth, so work lost with Redis, a flushed queue,
 * a crashed worker or a restarted in-process queue is found here and enqueued again — memories
 * pending too long (`memories.embed`/`memories.score`), deliveries not finished
 * (`github.deliver`), repository imports that stopped making progress (`github.import`) and
 * outcomes no consolidation has seen (`outcomes.consolidate`) — and the scheduled work the
 * database says is due: retention runs of agents with a policy (`agent.retain`). Bounded by
 * `limit` per kind and run. Fair: each kind is walked a page per run from where the last run of
 * this sweep stopped (`cursors`, oldest first, starting over at the end), so work behind a backlog
 * of older rows still queued is found within ceil(backlog / limit) + 1 runs (lost rows
 * waited ~30 min behind 42,800 queued ones when every run read the same oldest 5,000). Safe to
 * run in many processes at once: job ids are deterministic and processors re-check state.
 */
export async function sweepOnce(
  opts: SweepOptions,
  cursors: SweepCursors = {},
): Promise<{ memories: number; deliveries: number; imports: number; retention: number; outcomes: number }> {
  const memories = await pendingMemoryJobs(opts, cursors);
  const deliveryPage = await unfinishedDeliveries(opts, {
    olderThanMs: opts.afterMs,
    maxAttempts: opts.deliveryAttempts,
    limit: opts.limit,
    after: cursors.deliveries,
  });
  cursors.deliveries = deliveryPage.next;
  const deliveries = deliveryPage.rows;
  const importPage = await unfinishedImports(opts, {
    olderThanMs: opts.afterMs,
    limit: opts.limit,
    after: cursors.imports,
  });
  cursors.imports = importPage.next;
  const imports = importPage.rows;
  const retention =
    opts.retentionIntervalMs === undefined
      ? []
      : await agentsDueForRetention(opts, { intervalMs: opts.retentionIntervalMs, limit: opts.limit });
  // Agents holding expired memories: `agent.retain` removes them even where no policy is set.
  for (const agentId of await agentsWithExpired(opts.db, opts.clock.now(), opts.limit)) {
    if (!retention.includes(agentId)) retention.push(agentId);
  }
  const outcomePage = await unconsolidatedTaskTypes(opts.db, {
    now: opts.clock.now(),
    olderThanMs: opts.afterMs,
    limit: opts.limit,
    after: cursors.outcomes,
  });
  cursors.outcomes = outcomePage.next;
  const outcomes = outcomePage.rows;
  const jobs = [
    ...memories.jobs,
    ...deliveries.map((deliveryId) => jobRequest("github.deliver", { deliveryId })),
    ...imports.map((ref) => jobRequest("github.import", ref)),
    ...retention.map((agentId) => jobRequest("agent.retain", { agentId })),
    ...outcomes.map((o) => jobRequest("outcomes.consolidate", o)),
  ];
  if (jobs.length > 0) await opts.sink.enqueue(jobs);
  return {
    memories: memories.fields,
    deliveries: deliveries.length,
    imports: imports.length,
    retention: retention.length,
    outcomes: outcomes.length,
  };
}

/**
 * Where each kind's scan stopped in the last run (none: start at the oldest). Retention needs none:
 * a run moves its agent to the back (`retained_at`).
 */
export type SweepCursors = { memories?: Keyset; deliveries?: Keyset; imports?: Keyset; outcomes?: Keyset };

/** Jobs for memories pending longer than `afterMs` whose field no live job has claimed (a page after the cursor). */
async function pendingMemoryJobs(
  opts: SweepOptions,
  cursors: SweepCursors,
): Promise<{ jobs: JobRequest[]; fields: number }> {
  const page = await stalePending(opts, {
    afterMs: opts.afterMs,
    limit: opts.limit,
    after: cursors.memories,
  });
  cursors.memories = page.next;
  const rows = page.rows;
  // Sorted by id so two sweeps seeing the same rows build the same chunks, hence the same job ids.
  const ref = (r: StalePending) => ({ memoryId: r.memoryId, agentId: r.agentId, revision: r.revision });
  const byId = rows.sort((a, b) => (a.memoryId < b.memoryId ? -1 : 1));
  const emb = byId.filter((r) => r.embedding).map(ref);
  const imp = byId.filter((r) => r.importance).map(ref);
  const jobs = [
    ...chunk(emb, opts.embedChunk).map((c) => jobRequest("memories.embed", { items: c })),
    ...chunk(imp, SCORE_CHUNK).map((c) => jobRequest("memories.score", { items: c })),
  ];
  return { jobs, fields: emb.length + imp.length };
}

/** Sweeps now and then every `intervalMs` until stopped; a failed run is logged and retried next time. */
export function startSweep(opts: SweepOptions & { intervalMs: number; logger: Logger }): {
  stop(): Promise<void>;
} {
  let current: Promise<unknown> = Promise.resolve();
  const cursors: SweepCursors = {};
  let stopped = false;
  let running = false;
  const tick = () => {
    // A slow sweep (large backlog, slow database) is not stacked with the next one.
    if (running) return;
    running = true;
    current = sweepOnce(opts, cursors)
      .then(
        (n) =>
          n.memories + n.deliveries + n.imports + n.retention + n.outcomes > 0 &&
          opts.logger.info("sweep re-enqueued pending work", n),
      )
      .catch((err: unknown) => opts.logger.warn("sweep failed", { error: String(err) }))
      .finally(() => {
        running = false;
      });
  };
  tick();
  const timer = setInterval(() => {
    if (!stopped) tick();
  }, opts.intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
