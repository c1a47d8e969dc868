/**
 * What the domain announces after a write commits: background work that has become possible.
 * The database row is the source of truth for each; an announcement only makes the work start
 * sooner, and one that is lost is found again by the sweep (src/jobs/sweep.ts). The job system
 * turns events into jobs (src/jobs/event-jobs.ts); nothing here knows of queues.
 */

/** A memory at a revision. */
export type MemoryWork = { memoryId: string; agentId: string; revision: number };

/** The enrichment fields a memory may still be waiting for. */
export type PendingField = "embedding" | "importance";

export type WorkEvent =
  /**
   * Memories written whose embedding or importance is still to be computed. `fields` narrows it
   * (the sweep knows which field is unclaimed); absent = either may be.
   */
  | { kind: "memories.pending"; items: MemoryWork[]; fields?: PendingField }
  /** Memories that got a vector and are marked to be checked for supersession (`supersession_due_at`). */
  | { kind: "memories.embedded"; items: MemoryWork[] }
  /** The agent's summed importance grew: a threshold reflection may be due. */
  | { kind: "importance.added"; agentId: string }
  /** The agent recorded an outcome of this task type: a lesson may be consolidated. */
  | { kind: "outcome.recorded"; agentId: string; taskType: string | null }
  /** The agent has feedback enough to fit its ranking weights. */
  | { kind: "feedback.given"; agentId: string }
  /** The agent's retention run is due (found by the sweep: a policy's interval passed, or memories expired). */
  | { kind: "retention.due"; agentId: string }
  /** A GitHub delivery is stored and not yet processed. */
  | { kind: "delivery.accepted"; deliveryId: string }
  /** A repository import is open (`agentId`: the agent that asked, one of the import's agents). */
  | { kind: "import.opened"; importId: string; agentId: string }
  /**
   * A write for the agent committed: its outbox may hold new outgoing events (written by the
   * database in the write's transaction, src/outgoing). The announcer looks, cheaply, and makes
   * `events.pending` of what it finds; an agent without subscriptions costs nothing more.
   */
  | { kind: "events.recorded"; agentId: string }
  /** Outgoing event deliveries to send. */
  | { kind: "events.pending"; deliveries: DeliveryWork[] };

/** An outgoing event's delivery to one subscription. */
export type DeliveryWork = { agentId: string; deliveryId: string };

export type EventKind = WorkEvent["kind"];
export type EventOf<K extends EventKind> = Extract<WorkEvent, { kind: K }>;

/**
 * The one port through which work is announced. Implementations never throw and wait a bounded
 * time: a write that reached the database has succeeded whatever happens to its announcement.
 */
export type Announce = (events: readonly WorkEvent[]) => Promise<void>;

/** Announces nothing: for tools and benches that write without workers (the sweep finds the work). */
export const announceNothing: Announce = async () => {};

/**
 * The `events.recorded` announcements of a write, one per agent it wrote for: the outbox
 * triggers may have recorded outgoing events in its transaction (src/outgoing; the announcer
 * looks, cheaply).
 */
export const recorded = (rows: readonly { agentId: string }[]): WorkEvent[] =>
  [...new Set(rows.map((r) => r.agentId))].map((agentId) => ({ kind: "events.recorded", agentId }));
