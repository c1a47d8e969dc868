import type { Core } from "../../core";
import type { IngestDeps } from "../../ingest/github/deps";
import type { GithubAccess } from "../../ingest/github/import/run-import";
import type { ConsolidateDeps } from "../../memory/lessons/consolidate";
import type { ReflectAgentDeps } from "../../memory/reflect/types";
import type { OutgoingDeps } from "../../outgoing/types";
import type { ImportanceScorer } from "../../providers/types";
import type { JobName, Payload } from "../catalog";

/**
 * What processors need, built once in `src/compose.ts` from the one core: a flat object that is
 * at once the memory deps, the reflection deps, the GitHub ingestion deps and the lessons deps,
 * so each name (`db`, `clock`, `embedder`, ...) means one thing and domain functions take it whole.
 */
export type ProcessorDeps = Core &
  ReflectAgentDeps &
  IngestDeps &
  ConsolidateDeps & {
    importance: ImportanceScorer;
    /** Scores instead of `importance` for an agent past its LLM budget; absent = `importance` always. */
    offlineImportance?: ImportanceScorer;
    /** How long a claim on a memory lasts (longer than one provider call with its retries). */
    claimMs: number;
    /** Where the GitHub REST API is and its token, for `github.import`. */
    githubApi: GithubAccess;
    /** How outgoing events are delivered, for `events.deliver`. */
    outgoing: OutgoingDeps["outgoing"];
  };

/**
 * Where a job run stands: its id (the claim owner), its attempt (1-based) and whether it is the
 * last, and whether an earlier start of this same attempt never finished (its worker died:
 * BullMQ handed the stalled job to this worker), so state that attempt left behind is ours.
 */
export type JobRun = { jobId: string; attempt: number; maxAttempts: number; resumed: boolean };

/** The one context a processor gets: the deps of every feature, built from one core, and the run. */
export type ProcessorContext = ProcessorDeps & { job: JobRun };

export const isFinalAttempt = (run: JobRun) => run.attempt >= run.maxAttempts;

/** One processor: validated payload in, a small summary out; throws to retry. */
export type Processor<N extends JobName> = (
  payload: Payload<N>,
  ctx: ProcessorContext,
) => Promise<Record<string, number | string>>;
