import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Queue } from "bullmq";
import type { Config } from "../config";
import type { Services } from "../services";
import type { BodyWork } from "./body-work";
import type { AppEnv } from "./env";

/**
 * Everything the HTTP layer needs, built once in `src/compose.ts`: the services (src/services.ts),
 * handed whole to the domain functions, and what only HTTP serves.
 */
export type AppDeps = Services & {
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
  /** Large request bodies parsed and validated off the event loop. */
  bodies: BodyWork;
  /** The BullMQ queues for the dashboard at /admin/queues; null with the in-process queue. */
  queues: Queue[] | null;
  /** Readiness: database reachable and migrations applied. */
  ready(): Promise<{ ok: boolean; checks: Record<string, string> }>;
};

export type App = OpenAPIHono<AppEnv>;
