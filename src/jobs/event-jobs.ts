import type { EventKind, EventOf, MemoryWork, WorkEvent } from "../memory/events";
import { chunk } from "../providers/batching";
import { type JobRequest, jobRequest, SCORE_CHUNK } from "./catalog";

/** What the table needs to size jobs: memories per `memories.embed` job (the embedder's batch). */
export type EventJobOptions = { embedChunk: number };

/**
 * Memories sorted by id, as bare refs: two announcements (a write and a sweep, or two sweeps) of
 * the same memories build the same chunks, hence the same job ids.
 */
const refs = (items: readonly MemoryWork[]) =>
  items
    .map((i) => ({ memoryId: i.memoryId, agentId: i.agentId, revision: i.revision }))
    .sort((a, b) => (a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0));

/**
 * The one event → job table: every announced event (from a write through `announce`, or found
 * again by the sweep) becomes its jobs here. Every kind is named, or this does not compile.
 */
const EVENT_JOBS: { [K in EventKind]: (e: EventOf<K>, opts: EventJobOptions) => JobRequest[] } = {
  // Both fields unless narrowed: each processor claims only rows pending for its own field, so a
  // job for a field the caller already supplied is a cheap no-op without a provider call.
  "memories.pending": (e, opts) => [
    ...(e.fields === "importance"
      ? []
      : chunk(refs(e.items), opts.embedChunk).map((c) => jobRequest("memories.embed", { items: c }))),
    ...(e.fields === "embedding"
      ? []
      : chunk(refs(e.items), SCORE_CHUNK).map((c) => jobRequest("memories.score", { items: c }))),
  ],
  // One LLM call per memory, so small chunks spread better.
  "memories.embedded": (e) =>
    chunk(refs(e.items), SCORE_CHUNK).map((c) => jobRequest("memories.supersede", { items: c })),
  "importance.added": (e) => [jobRequest("agent.reflect", { agentId: e.agentId })],
  "outcome.recorded": (e) => [
    jobRequest("outcomes.consolidate", { agentId: e.agentId, taskType: e.taskType }),
  ],
  "feedback.given": (e) => [jobRequest("agent.learn", { agentId: e.agentId })],
  "retention.due": (e) => [jobRequest("agent.retain", { agentId: e.agentId })],
  "delivery.accepted": (e) => [jobRequest("github.deliver", { deliveryId: e.deliveryId })],
  "import.opened": (e) => [jobRequest("github.import", { importId: e.importId, agentId: e.agentId })],
  // The announcer looks up what was recorded and announces it as `events.pending` (announce.ts).
  "events.recorded": () => [],
  "events.pending": (e) =>
    e.deliveries.map((i) => jobRequest("events.deliver", { agentId: i.agentId, deliveryId: i.deliveryId })),
};

/** The jobs of one event. */
export const eventJobs = (e: WorkEvent, opts: EventJobOptions): JobRequest[] =>
  (EVENT_JOBS[e.kind] as (e: WorkEvent, opts: EventJobOptions) => JobRequest[])(e, opts);

/** The jobs of a list of events, in order (an empty list of items makes no job). */
export const jobsFor = (events: readonly WorkEvent[], opts: EventJobOptions): JobRequest[] =>
  events.flatMap((e) => eventJobs(e, opts));
