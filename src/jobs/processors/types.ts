import type { Db } from "../../db/client";
import type { Logger } from "../../lib/logger";
import type { ReflectionScheduler } from "../../memory/deps";
import type { Embedder, ImportanceScorer } from "../../providers/types";
import type { MemoryChunk } from "../catalog";

/** What processors need, built once at composition time. */
export type ProcessorDeps = {
  db: Db;
  embedder: Embedder;
  importance: ImportanceScorer;
  logger: Logger;
  /** How long a claim on a memory lasts (longer than one provider call with its retries). */
  claimMs: number;
  /** Told which agents gained importance, so a threshold reflection can start. */
  reflection: ReflectionScheduler;
};

/** Where a job run stands: its id (the claim owner) and whether this is its last attempt. */
export type JobContext = { jobId: string; attempt: number; maxAttempts: number };

export const isFinalAttempt = (ctx: JobContext) => ctx.attempt >= ctx.maxAttempts;

/** One processor: validated payload in, a small summary out; throws to retry. */
export type Processor = (
  deps: ProcessorDeps,
  payload: MemoryChunk,
  ctx: JobContext,
) => Promise<Record<string, number>>;
