import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Queue } from "bullmq";
import type { Config } from "../config";
import type { IngestDeps } from "../ingest/github/deps";
import type { Logger } from "../lib/logger";
import type { MemoryDeps } from "../memory/deps";
import type { ReflectAgentDeps } from "../memory/reflect/types";
import type { TextWork } from "../memory/text/text-work";
import type { Metrics } from "../metrics";
import type { BodyWork } from "./body-work";
import type { AppEnv } from "./env";

/** Everything the HTTP layer needs, built once in `src/compose.ts`. */
export type AppDeps = {
  config: Pick<
    Config,
    | "apiKeys"
    | "adminKeys"
    | "maxBodyBytes"
    | "github"
    | "reflectionThreshold"
    | "llmBudget"
    | "retrieveCache"
    | "tokenizerEncoding"
    | "learning"
    | "outgoing"
  >;
  logger: Logger;
  /** This process's Prometheus metrics (served at /metrics). */
  metrics: Metrics;
  memory: MemoryDeps;
  /** Memory deps plus the chat model (null = reflection off) and the default threshold. */
  reflect: ReflectAgentDeps;
  /** GitHub ingestion: memory deps, routing rules, where deliveries and imports are enqueued. */
  github: IngestDeps;
  /** Document splitting and large token counts, off the event loop. */
  text: TextWork;
  /** Large request bodies parsed and validated off the event loop. */
  bodies: BodyWork;
  /** The BullMQ queues for the dashboard at /admin/queues; null with the in-process queue. */
  queues: Queue[] | null;
  /** Readiness: database reachable and migrations applied. */
  ready(): Promise<{ ok: boolean; checks: Record<string, string> }>;
};

export type App = OpenAPIHono<AppEnv>;
