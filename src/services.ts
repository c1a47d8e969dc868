import type { Core } from "./core";
import type { IngestDeps } from "./ingest/github/deps";
import type { GithubAccess } from "./ingest/github/import/run-import";
import type { ConsolidateDeps } from "./memory/lessons/consolidate";
import type { ReflectAgentDeps } from "./memory/reflect/types";
import type { TextWork } from "./memory/text/text-work";
import type { OutgoingDeps } from "./outgoing/types";
import type { Embedder, ImportanceScorer } from "./providers/types";

/**
 * The running system's services: one object, built once in `src/compose.ts` from the one core and
 * the config, that the routes, the MCP tools and the job processors receive. Each name (`db`,
 * `clock`, `embedder`, `announce`, ...) means one thing; a domain function takes the `Pick` it
 * needs (`MemoryDeps`, `ReflectAgentDeps`, `IngestDeps`, `ConsolidateDeps` are such picks), so this
 * object is passed whole. Every member is given: defaults live in src/config.ts only.
 */
export type Services = Core &
  ReflectAgentDeps &
  IngestDeps &
  ConsolidateDeps & {
    /** Document splitting and large token counts, in worker threads. */
    text: TextWork;
    /** Scores importance with the configured model (or the offline scorer without one). */
    importance: ImportanceScorer;
    /** Scores instead of `importance` for an agent past its LLM budget (marked so in importanceSource). */
    offlineImportance: ImportanceScorer;
    /** Embeds task texts for lessons (a cached embedder: each consolidation embeds the same tasks again). */
    taskEmbedder: Embedder;
    /** How long a claim on a memory lasts (longer than one provider call with its retries). */
    claimMs: number;
    /** Where the GitHub REST API is and its token, for `github.import`. */
    githubApi: GithubAccess;
    /** How outgoing events are delivered (`events.deliver`, docs/events.md). */
    outgoing: OutgoingDeps["outgoing"];
  };
