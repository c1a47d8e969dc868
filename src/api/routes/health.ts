import type { App, AppDeps } from "../deps";

/** `/healthz`: the process is up. `/readyz`: the database answers and migrations are applied. */
export const registerHealth = (app: App, deps: AppDeps) => {
  app.get("/healthz", (c) => c.json({ ok: true }));
  app.get("/readyz", async (c) => {
    const r = await deps.ready();
    return c.json(r, r.ok ? 200 : 503);
  });
};
