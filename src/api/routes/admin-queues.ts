import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { HonoAdapter } from "@bull-board/hono";
import { serveStatic } from "@hono/node-server/serve-static";
import type { Queue } from "bullmq";
import type { Context } from "hono";
import { requireAdminKey } from "../auth";
import type { App, AppDeps } from "../deps";
import { errorResponse } from "../errors";

export const QUEUE_DASHBOARD_PATH = "/admin/queues";

/**
 * The BullMQ dashboard (bull-board) at /admin/queues, behind an admin key: operators see and retry
 * jobs across every tenant, so agent keys never open it. Only with Redis: the in-process queue has
 * nothing to show across restarts, and says so.
 */
export const registerQueueDashboard = (app: App, deps: AppDeps) => {
  app.use(`${QUEUE_DASHBOARD_PATH}/*`, requireAdminKey(deps.config.adminKeys, deps.config.apiKeys));
  app.use(QUEUE_DASHBOARD_PATH, requireAdminKey(deps.config.adminKeys, deps.config.apiKeys));
  const queues = deps.queues;
  if (!queues) {
    const off = (c: Context) =>
      errorResponse(c, "not_configured", "the queue dashboard needs BullMQ: set REDIS_URL");
    app.get(QUEUE_DASHBOARD_PATH, off);
    app.get(`${QUEUE_DASHBOARD_PATH}/*`, off);
    return;
  }
  app.route(QUEUE_DASHBOARD_PATH, dashboard(queues));
};

function dashboard(queues: Queue[]) {
  const adapter = new HonoAdapter(serveStatic);
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q)),
    serverAdapter: adapter,
    options: { uiConfig: { boardTitle: "memstream jobs" } },
  });
  adapter.setBasePath(QUEUE_DASHBOARD_PATH);
  return adapter.registerPlugin();
}
