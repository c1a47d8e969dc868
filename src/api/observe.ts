import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { Logger } from "../lib/logger";
import type { Metrics } from "../metrics";
import type { AppEnv } from "./env";

// Probes and scrapes arrive every few seconds; at info they would drown the log.
const QUIET = new Set(["/healthz", "/readyz", "/metrics"]);

/**
 * The route pattern (`/v1/agents/:agentId/retrieve`), never the raw path: metric labels and log
 * fields must stay a bounded set, and a path carries agent ids. "unmatched" when no route matched.
 */
export function routeOf(c: Context): string {
  const route = matchedRoutes(c).findLast((r) => r.method !== "ALL");
  return route?.path ?? "unmatched";
}

/** One log line and one histogram sample per request, with its request id, route and status. */
export function observeRequests(logger: Logger, metrics: Metrics): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const seconds = (performance.now() - started) / 1000;
    const route = routeOf(c);
    const status = c.res.status;
    metrics.httpDuration.observe({ method: c.req.method, route, status: String(status) }, seconds);
    const fields = {
      requestId: c.get("requestId"),
      method: c.req.method,
      route,
      path: c.req.path,
      status,
      ms: Math.round(seconds * 10_000) / 10,
    };
    if (QUIET.has(c.req.path)) logger.debug("request", fields);
    else if (status >= 500) logger.error("request", fields);
    else logger.info("request", fields);
  };
}
