import type { Hono } from "hono";
import { requireAdminKey } from "../auth";
import type { AppDeps } from "../deps";
import type { AppEnv } from "../env";

/** `GET /metrics`: Prometheus exposition of this process, behind an admin key. Not in the OpenAPI document (not an agent API). */
export const registerMetrics = (
  app: Hono<AppEnv>,
  deps: { config: Pick<AppDeps["config"], "adminKeys" | "apiKeys">; metrics: AppDeps["metrics"] },
) => {
  app.get("/metrics", requireAdminKey(deps.config.adminKeys, deps.config.apiKeys), async (c) => {
    const body = await deps.metrics.scrape();
    return c.body(body, 200, { "content-type": deps.metrics.contentType });
  });
};
