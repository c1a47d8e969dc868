import type { Logger } from "../lib/logger";
import type { Announce, DeliveryWork, WorkEvent } from "../memory/events";
import { type EventJobOptions, jobsFor } from "./event-jobs";
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

/** What an event names, for the log line of a lost announcement. */
const described = (events: readonly WorkEvent[]) =>
  events.map((e) => ("items" in e ? `${e.kind}(${e.items.length})` : JSON.stringify(e))).join(", ");

/**
 * The domain's `announce`, implemented as enqueues: events become jobs through the one table
 * (event-jobs.ts) and are enqueued within ENQUEUE_TIMEOUT_MS. It never throws: the database already
 * holds the work, so a lost enqueue (Redis down) is found by the sweep. `importance.added` becomes
 * an `agent.reflect` job only when the agent is due (`dueForReflection`: threshold reached, not
 * backing off after a failed run; null = no LLM, never), so a job is only enqueued when it will
 * reflect; the job id is per agent, so announcements while it is queued or running collapse.
 */
export function createAnnouncer(
  opts: EventJobOptions & {
    sink: JobSink;
    logger: Logger;
    dueForReflection: ((agentId: string) => Promise<boolean>) | null;
    /** The agent's outgoing event deliveries ready to send (src/outgoing/pending.ts); absent = none looked for. */
    pendingDeliveries?: (agentId: string) => Promise<DeliveryWork[]>;
  },
): Announce {
  const due = async (e: WorkEvent): Promise<boolean> => {
    if (e.kind !== "importance.added") return true;
    if (!opts.dueForReflection) return false;
    try {
      return await opts.dueForReflection(e.agentId);
    } catch (err) {
      // Never fail the write that added importance; the next one checks again.
      opts.logger.warn("reflection threshold check failed", { agentId: e.agentId, error: String(err) });
      return false;
    }
  };
  /** `events.recorded` becomes the deliveries it recorded (none for an agent without subscriptions). */
  const resolve = async (e: WorkEvent): Promise<WorkEvent | null> => {
    if (e.kind !== "events.recorded") return (await due(e)) ? e : null;
    if (!opts.pendingDeliveries) return null;
    try {
      const items = await opts.pendingDeliveries(e.agentId);
      return items.length > 0 ? { kind: "events.pending", deliveries: items } : null;
    } catch (err) {
      // The rows are committed: the sweep sends them.
      opts.logger.warn("outgoing event lookup failed", { agentId: e.agentId, error: String(err) });
      return null;
    }
  };
  return async (events) => {
    const wanted: WorkEvent[] = [];
    for (const e of events) {
      const r = await resolve(e);
      if (r) wanted.push(r);
    }
    const jobs = jobsFor(wanted, opts);
    if (jobs.length === 0) return;
    try {
      await withTimeout(opts.sink.enqueue(jobs), ENQUEUE_TIMEOUT_MS);
    } catch (err) {
      opts.logger.warn("enqueue failed; the database still holds the work (sweep, next write)", {
        events: described(wanted),
        error: err instanceof Error ? err.message : String(err),
      });
    }
  };
}
