import { Hono } from "hono";
import { requestId } from "hono/request-id";
import type { Config } from "../config";
import type { Metrics } from "../metrics";
import type { AppEnv } from "./env";
import { errorResponse } from "./errors";
import { registerMetrics } from "./routes/metrics";

/**
 * The worker process's only HTTP surface: `/metrics` (job durations, queue depth, enrichment lag
 * are recorded where jobs run) and `/healthz`, so Prometheus scrapes workers like the API.
 */
export function createMetricsApp(deps: { config: Pick<Config, "adminKeys" | "apiKeys">; metrics: Metrics }) {
  const app = new Hono<AppEnv>();
  app.use("*", requestId({ headerName: "x-request-id" }));
  app.notFound((c) => errorResponse(c, "not_found", `no route for ${c.req.method} ${c.req.path}`));
  app.get("/healthz", (c) => c.json({ ok: true }));
  registerMetrics(app, deps);
  return app;
}
