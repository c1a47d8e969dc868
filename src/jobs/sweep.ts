import type { Core } from "../core";
import type { Keyset } from "../db/keyset";
import { unfinishedImports } from "../ingest/github/import/unfinished-imports";
import { unfinishedDeliveries } from "../ingest/github/unfinished-deliveries";
import type { Logger } from "../lib/logger";
import { agentsWithExpired } from "../memory/deletion/purge-expired";
import { type StalePending, stalePending } from "../memory/enrichment/stale";
import type { WorkEvent } from "../memory/events";
import { unconsolidatedTaskTypes } from "../memory/lessons/unconsolidated";
import { agentsDueForRetention } from "../memory/retention/retain";
import { dueForSupersession } from "../memory/supersession/due";
import { overdueDeliveries } from "../outgoing/pending";
import { type EventJobOptions, jobsFor } from "./event-jobs";
import type { JobSink } from "./sink";

/** The core's database and clock (the sweep's "now": staleness is measured on the clock that wrote the rows). */
export type SweepOptions = Pick<Core, "db" | "clock"> &
  EventJobOptions & {
    sink: JobSink;
    afterMs: number;
    limit: number;
    /** A failed delivery is re-enqueued while its failed attempts are below this. */
    deliveryAttempts: number;
    /** Agents with a retention policy get an `agent.retain` job once their last run is this old; absent = none. */
    retentionIntervalMs?: number;
  };

/**
 * The one sweep: the database is the source of truth, so work lost with Redis, a flushed queue,
 * a crashed worker or a restarted in-process queue is found here and announced again as the
 * events a write would have announced, made jobs by the same table (event-jobs.ts) — memories
 * pending too long (`memories.pending`), memories whose supersession check is due
 * (`memories.embedded`: its announcement was lost, or its agent's budget day turned), deliveries
 * not finished (`delivery.accepted`), outgoing event deliveries overdue (`events.pending`), repository imports that stopped making progress
 * (`import.opened`) and outcomes no consolidation has seen (`outcome.recorded`) — and the
 * scheduled work the database says is due: retention runs of agents with a policy or expired
 * memories (`retention.due`). Bounded by `limit` per kind and run. Fair: each kind is walked a
 * page per run from where the last run of this sweep stopped (`cursors`, oldest first, starting
 * over at the end), so work behind a backlog of older rows still queued is found within
 * ceil(backlog / limit) + 1 runs (lost rows waited ~30 min behind 42,800 queued ones when every
 * run read the same oldest 5,000). Safe to run in many processes at once: job ids are
 * deterministic and processors re-check state.
 */
export async function sweepOnce(opts: SweepOptions, cursors: SweepCursors = {}): Promise<SweepCounts> {
  const pending = await stalePending(opts, {
    afterMs: opts.afterMs,
    limit: opts.limit,
    after: cursors.memories,
  });
  cursors.memories = pending.next;
  const ref = (r: StalePending) => ({ memoryId: r.memoryId, agentId: r.agentId, revision: r.revision });
  const embedding = pending.rows.filter((r) => r.embedding).map(ref);
  const importance = pending.rows.filter((r) => r.importance).map(ref);
  const supersessionPage = await dueForSupersession(opts, {
    afterMs: opts.afterMs,
    limit: opts.limit,
    after: cursors.supersession,
  });
  cursors.supersession = supersessionPage.next;
  const supersession = supersessionPage.rows;
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
  const eventPage = await overdueDeliveries(opts.db, {
    now: opts.clock.now(),
    olderThanMs: opts.afterMs,
    limit: opts.limit,
    after: cursors.events,
  });
  cursors.events = eventPage.next;
  const events = eventPage.rows;
  const found: WorkEvent[] = [
    // Only the fields no live job has claimed.
    { kind: "memories.pending", items: embedding, fields: "embedding" },
    { kind: "memories.pending", items: importance, fields: "importance" },
    { kind: "memories.embedded", items: supersession },
    ...deliveries.map((deliveryId) => ({ kind: "delivery.accepted" as const, deliveryId })),
    ...imports.map((ref) => ({ kind: "import.opened" as const, ...ref })),
    ...retention.map((agentId) => ({ kind: "retention.due" as const, agentId })),
    ...outcomes.map((o) => ({ kind: "outcome.recorded" as const, ...o })),
    { kind: "events.pending", deliveries: events },
  ];
  const jobs = jobsFor(found, opts);
  if (jobs.length > 0) await opts.sink.enqueue(jobs);
  return {
    memories: embedding.length + importance.length,
    supersession: supersession.length,
    deliveries: deliveries.length,
    imports: imports.length,
    retention: retention.length,
    outcomes: outcomes.length,
    events: events.length,
  };
}

/** What one sweep run announced again, per kind (memories: pending fields). */
export type SweepCounts = {
  memories: number;
  supersession: number;
  deliveries: number;
  imports: number;
  retention: number;
  outcomes: number;
  /** Outgoing event deliveries overdue (pending past their next attempt). */
  events: number;
};

/**
 * Where each kind's scan stopped in the last run (none: start at the oldest). Retention needs none:
 * a run moves its agent to the back (`retained_at`).
 */
export type SweepCursors = {
  memories?: Keyset;
  supersession?: Keyset;
  deliveries?: Keyset;
  imports?: Keyset;
  outcomes?: Keyset;
  events?: Keyset;
};

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
          Object.values(n).some((count) => count > 0) &&
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
