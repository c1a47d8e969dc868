import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client";
import type { Logger } from "../lib/logger";
import { chunk } from "../providers/batching";
import { jobRequest, SCORE_CHUNK } from "./catalog";
import type { JobSink } from "./sink";

export type SweepOptions = { db: Db; sink: JobSink; afterMs: number; limit: number; embedChunk: number };

type Row = { id: string; agentId: string; revision: number; imp: boolean; emb: boolean };

/**
 * Re-enqueues memories pending for longer than `afterMs` whose field is not claimed by a live
 * job: the database is the source of truth, so work lost with Redis, a flushed queue or a
 * crashed worker is found here. Bounded by `limit` per run (oldest first, via the partial
 * pending index). Safe to run in many processes at once: job ids are deterministic and
 * processors only work on rows they claim. The one statement that spans agents on purpose
 * (under Citus a scan of every shard; ADR 0010).
 */
export async function sweepOnce(opts: SweepOptions): Promise<number> {
  const rows = await queryRows<Row>(
    opts.db,
    sql`SELECT id, agent_id AS "agentId", revision,
          importance_status = 'pending' AND (importance_claimed_until IS NULL OR importance_claimed_until < now()) AS imp,
          embedding_status = 'pending' AND (embedding_claimed_until IS NULL OR embedding_claimed_until < now()) AS emb
        FROM memories
        WHERE (importance_status = 'pending' OR embedding_status = 'pending')
          AND updated_at < now() - make_interval(secs => ${opts.afterMs / 1000}::float8)
        ORDER BY updated_at LIMIT ${opts.limit}`,
  );
  // Sorted by id so two sweeps seeing the same rows build the same chunks, hence the same job ids.
  const ref = (r: Row) => ({ memoryId: r.id, revision: r.revision, agentId: r.agentId });
  const byId = rows.sort((a, b) => (a.id < b.id ? -1 : 1));
  const emb = byId.filter((r) => r.emb).map(ref);
  const imp = byId.filter((r) => r.imp).map(ref);
  const jobs = [
    ...chunk(emb, opts.embedChunk).map((c) => jobRequest("memories.embed", c)),
    ...chunk(imp, SCORE_CHUNK).map((c) => jobRequest("memories.score", c)),
  ];
  if (jobs.length > 0) await opts.sink.enqueue(jobs);
  return emb.length + imp.length;
}

/** Sweeps now and then every `intervalMs` until stopped; a failed run is logged and retried next time. */
export function startSweep(opts: SweepOptions & { intervalMs: number; logger: Logger }): {
  stop(): Promise<void>;
} {
  let current: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let running = false;
  const tick = () => {
    // A slow sweep (large backlog, slow database) is not stacked with the next one.
    if (running) return;
    running = true;
    current = sweepOnce(opts)
      .then((n) => n > 0 && opts.logger.info("sweep re-enqueued pending work", { fields: n }))
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
