import { createHash } from "node:crypto";
import { z } from "zod";
import type { JobsConfig } from "../config";

/**
 * The one job catalog: every piece of background work, by name (`entity.verb`) → zod payload →
 * deterministic id → retry policy. BullMQ (one queue per name) and the in-process queue run the
 * same entries with the same processors, ids and retries; nothing in `src/` runs background
 * work any other way (test/jobs/no-work-loops.test.ts checks it).
 *
 * Adding a job, e.g. `memories.import`:
 *   1. an entry here: its payload schema (the only input a processor trusts), `key` (what makes
 *      two requests the same job: the same key is queued once) and, if not the default, `attempts`;
 *   2. its processor in `processors/<verb>-<entity>.ts`, registered in `processors/index.ts`
 *      (a `Record<JobName, …>`: the typecheck fails until it is);
 *   3. make it the job of a domain event (`src/memory/events.ts`; a new kind if none fits) in the
 *      event → job table (`event-jobs.ts`), which both `announce` (`announce.ts`, after a write)
 *      and the sweep (`sweep.ts`, when the database says work is due) go through;
 *   4. a row in the job table of docs/operations.md.
 * Keep the database the source of truth: a processor re-checks state before working, so a job run
 * twice, late or after its work was done is harmless.
 */

const MemoryRef = z
  .object({
    memoryId: z.string().min(1).max(64),
    revision: z.number().int().min(1),
    // Every statement names the agent (keys lead with agent_id; ADR 0011). Jobs enqueued before
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

/** Attempts of one `agent.reflect` job: each attempt is a run of several paid LLM calls. */
const REFLECT_ATTEMPTS = 3;

/** Attempts of one `outcomes.consolidate` job; the last words lessons with the template if the LLM still fails. */
const CONSOLIDATE_ATTEMPTS = 3;

/** The memories of a chunk at their revisions: the same chunk announced twice is one job. */
const chunkKey = (p: MemoryChunk) =>
  p.items
    .map((i) => `${i.memoryId}@${i.revision}`)
    .sort()
    .join(",");

/** The retry settings a job's policy is chosen from. */
export type JobPolicy = Pick<JobsConfig, "attempts" | "backoffMs" | "eventAttempts" | "eventBackoffMs">;

type Spec<S extends z.ZodType> = {
  payload: S;
  /** Identity of the work: requests with the same key are one job while it is queued or running. */
  key: (payload: z.infer<S>) => string;
  /** Attempts per job; default `MEMSTREAM_JOB_ATTEMPTS`. */
  attempts?: (cfg: JobPolicy) => number;
  /** Base of the exponential backoff between attempts; default `MEMSTREAM_JOB_BACKOFF_MS`. */
  backoffMs?: (cfg: JobPolicy) => number;
};
const job = <S extends z.ZodType>(spec: Spec<S>) => spec;

export const JOBS = {
  /** Embed a chunk of memories in one provider call (`src/jobs/processors/embed-memories.ts`). */
  "memories.embed": job({ payload: MemoryChunk, key: chunkKey }),
  /** Score the importance of a chunk of memories. */
  "memories.score": job({ payload: MemoryChunk, key: chunkKey }),
  /**
   * Ask the LLM whether each memory of the chunk updates or contradicts its most similar earlier
   * memories, and record supersession (`src/jobs/processors/supersede-memories.ts`; docs/adr/0029).
   */
  "memories.supersede": job({ payload: MemoryChunk, key: chunkKey }),
  /** Turn a stored GitHub delivery into observations. */
  "github.deliver": job({
    payload: z.object({ deliveryId: z.string().min(1).max(100) }).strict(),
    key: (p) => p.deliveryId,
  }),
  /**
   * Run (or resume) a repository import (`src/jobs/processors/import-github.ts`): the import row
   * holds its phase and next page, so a re-run continues where the last committed page left off.
   * `agentId` is the agent that asked (an import writes only to agents named on its row).
   */
  "github.import": job({
    payload: z.object({ importId: z.string().min(1).max(64), agentId: z.string().min(1).max(200) }).strict(),
    key: (p) => p.importId,
  }),
  /** Run a threshold reflection for an agent whose summed importance reached its threshold. */
  "agent.reflect": job({
    payload: z.object({ agentId: z.string().min(1).max(200) }).strict(),
    key: (p) => p.agentId,
    attempts: (cfg) => Math.min(cfg.attempts, REFLECT_ATTEMPTS),
  }),
  /**
   * Consolidate an agent's outcomes of one task type into lessons (`src/memory/lessons/`). Keyed by
   * agent and task type: outcomes recorded while one is queued or running share it.
   */
  "outcomes.consolidate": job({
    payload: z
      .object({ agentId: z.string().min(1).max(200), taskType: z.string().min(1).max(200).nullable() })
      .strict(),
    // NUL cannot occur in either (storable text) and a task type is never empty: unambiguous.
    key: (p) => `${p.agentId}\u0000${p.taskType ?? ""}`,
    attempts: (cfg) => Math.min(cfg.attempts, CONSOLIDATE_ATTEMPTS),
  }),
  /**
   * Apply an agent's retention policy (src/memory/retention/), enqueued by the sweep for agents
   * with a policy once their last run is `MEMSTREAM_RETENTION_INTERVAL_MS` old. Keyed by agent:
   * one run per agent at a time, however many sweeps announce it.
   */
  "agent.retain": job({
    payload: z.object({ agentId: z.string().min(1).max(200) }).strict(),
    key: (p) => p.agentId,
  }),
  /**
   * Fit an agent's ranking weights to its feedback (src/memory/learning/learn.ts), announced by
   * feedback once the agent has enough. Keyed by agent: feedback while one is queued shares it;
   * the run re-reads the log, so it fits on everything given by then.
   */
  "agent.learn": job({
    payload: z.object({ agentId: z.string().min(1).max(200) }).strict(),
    key: (p) => p.agentId,
  }),
  /**
   * Send one outgoing event to its subscribed URL (`src/jobs/processors/deliver-event.ts`): one
   * signed POST per attempt, each recorded on the delivery row; a failed one is retried with the
   * events' own backoff (1 min, 2, 4, …), then the row is `failed`. Keyed by delivery: the write's
   * announcement and the sweep queue it once.
   */
  "events.deliver": job({
    payload: z
      .object({ agentId: z.string().min(1).max(200), deliveryId: z.string().min(1).max(64) })
      .strict(),
    key: (p) => p.deliveryId,
    attempts: (cfg) => cfg.eventAttempts,
    backoffMs: (cfg) => cfg.eventBackoffMs,
  }),
} as const;

export type JobName = keyof typeof JOBS;
export const JOB_NAMES = Object.keys(JOBS) as JobName[];
export type Payload<N extends JobName> = z.infer<(typeof JOBS)[N]["payload"]>;

/** A job ready to enqueue: its deterministic id, name and payload. */
export type JobRequest<N extends JobName = JobName> = {
  [K in N]: { id: string; name: K; payload: Payload<K> };
}[N];

/**
 * Deterministic id: a hash of the job's key, so a write's announcement and a sweep (or two sweeps)
 * announcing the same work queue it once. No `:` (BullMQ forbids it), whatever the key holds.
 */
export function jobId<N extends JobName>(name: N, payload: Payload<N>): string {
  const key = (JOBS[name].key as (p: Payload<N>) => string)(payload);
  return `${name}-${createHash("sha256").update(key).digest("hex").slice(0, 40)}`;
}

/** Builds a job request. */
export const jobRequest = <N extends JobName>(name: N, payload: Payload<N>): JobRequest<N> =>
  ({ id: jobId(name, payload), name, payload }) as JobRequest<N>;

/** Attempts of a job by name. */
export const jobAttempts = (name: JobName, cfg: JobPolicy): number =>
  (JOBS[name] as Spec<z.ZodType>).attempts?.(cfg) ?? cfg.attempts;

/** Backoff base of a job by name. */
export const jobBackoffMs = (name: JobName, cfg: JobPolicy): number =>
  (JOBS[name] as Spec<z.ZodType>).backoffMs?.(cfg) ?? cfg.backoffMs;

/**
 * Options of a job: exponential backoff for transient faults, and finished jobs removed at once.
 * Keeping them would make a later job with the same id (after "retry failed", a manual delivery
 * retry) a no-op; the outcome itself is recorded in the database (memory row, delivery, run).
 */
export function jobOptions(name: JobName, cfg: JobPolicy) {
  return {
    attempts: jobAttempts(name, cfg),
    backoff: { type: "exponential" as const, delay: jobBackoffMs(name, cfg) },
    removeOnComplete: true,
    removeOnFail: true,
  };
}
