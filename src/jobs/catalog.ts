import { createHash } from "node:crypto";
import { z } from "zod";
import type { JobsConfig } from "../config";

/**
 * The one job catalog: name (`entity.verb`) → zod payload → default options. Both jobs carry a
 * chunk of memories at the revision they were announced with; processors reload the rows and
 * skip any that changed, were deleted or are no longer pending.
 */

const MemoryRef = z
  .object({
    memoryId: z.string().min(1).max(64),
    revision: z.number().int().min(1),
    // Every statement names the agent (keys lead with agent_id; ADR 0010). Jobs enqueued before
    // it was carried fail validation and their rows are re-announced by the sweep.
    agentId: z.string().min(1).max(200),
  })
  .strict();

/** A chunk of memories to enrich; at most 2048 (OpenAI's own per-request input limit). */
export const MemoryChunk = z.object({ items: z.array(MemoryRef).min(1).max(2048) }).strict();
export type MemoryChunk = z.infer<typeof MemoryChunk>;
export type MemoryRef = z.infer<typeof MemoryRef>;

/** Memories per `memories.score` job: the LLM scorer makes one call per memory, so small chunks spread better. */
export const SCORE_CHUNK = 32;

export const JOBS = {
  /** Embed a chunk of memories in one provider call. */
  "memories.embed": { payload: MemoryChunk, field: "embedding" },
  /** Score the importance of a chunk of memories. */
  "memories.score": { payload: MemoryChunk, field: "importance" },
} as const;

export type JobName = keyof typeof JOBS;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];
/** The memory field a job fills in; names the `<field>_status` columns. */
export type EnrichedField = (typeof JOBS)[JobName]["field"];

/** A job ready to enqueue: its deterministic id, name and payload. */
export type JobRequest = { id: string; name: JobName; payload: MemoryChunk };

/**
 * Deterministic id: the same memories at the same revisions give the same id, so a notifier
 * and a sweep (or two sweeps) announcing the same work queue it once. No `:` (BullMQ forbids it).
 */
export function jobId(name: JobName, items: readonly MemoryRef[]): string {
  const key = items
    .map((i) => `${i.memoryId}@${i.revision}`)
    .sort()
    .join(",");
  return `${name}-${createHash("sha256").update(key).digest("hex").slice(0, 40)}`;
}

/** Builds a job request for a chunk. */
export const jobRequest = (name: JobName, items: MemoryRef[]): JobRequest => ({
  id: jobId(name, items),
  name,
  payload: { items },
});

/**
 * Default options: exponential backoff for transient faults, and finished jobs removed at
 * once. Keeping them would make a later job with the same id (after "retry failed") a no-op;
 * the failure itself is recorded on the memory row, where users see it.
 */
export function defaultJobOptions(cfg: Pick<JobsConfig, "attempts" | "backoffMs">) {
  return {
    attempts: cfg.attempts,
    backoff: { type: "exponential" as const, delay: cfg.backoffMs },
    removeOnComplete: true,
    removeOnFail: true,
  };
}
