import type { Db } from "../../db/client";
import type { IngestDeps } from "../../ingest/github/deps";
import type { GithubAccess } from "../../ingest/github/import/run-import";
import type { Logger } from "../../lib/logger";
import type { ReflectionScheduler } from "../../memory/deps";
import type { ConsolidateDeps } from "../../memory/lessons/consolidate";
import type { ReflectAgentDeps } from "../../memory/reflect/types";
import type { Metrics } from "../../metrics";
import type { Embedder, ImportanceScorer } from "../../providers/types";
import type { JobName, Payload } from "../catalog";

/** What processors need, built once at composition time. */
export type ProcessorDeps = {
  db: Db;
  embedder: Embedder;
  importance: ImportanceScorer;
  logger: Logger;
  /** How long a claim on a memory lasts (longer than one provider call with its retries). */
  claimMs: number;
  /** Told which agents gained importance, so a threshold reflection is enqueued when due. */
  reflection: ReflectionScheduler;
  /** Memory deps plus the chat model, for `agent.reflect`. */
  reflect: ReflectAgentDeps;
  /** Database, task embedder, chat model and enrichment seam, for `outcomes.consolidate`. */
  lessons: ConsolidateDeps;
  /** The memory domain and routing rules, for `github.deliver`. */
  ingest: IngestDeps;
  /** Where the GitHub REST API is and its token, for `github.import`. */
  github: GithubAccess;
  /** This process's metrics: job durations (the runner) and enrichment lag (the processors). */
  metrics: Metrics;
};

/**
 * Where a job run stands: its id (the claim owner), its attempt (1-based) and whether it is the
 * last, and whether an earlier start of this same attempt never finished (its worker died:
 * BullMQ handed the stalled job to this worker), so state that attempt left behind is ours.
 */
export type JobContext = { jobId: string; attempt: number; maxAttempts: number; resumed: boolean };

export const isFinalAttempt = (ctx: JobContext) => ctx.attempt >= ctx.maxAttempts;

/** One processor: validated payload in, a small summary out; throws to retry. */
export type Processor<N extends JobName> = (
  deps: ProcessorDeps,
  payload: Payload<N>,
  ctx: JobContext,
) => Promise<Record<string, number | string>>;
