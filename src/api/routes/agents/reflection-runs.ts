import { createRoute, z } from "@hono/zod-openapi";
import { listReflectionRuns } from "../../../memory/reflect/list-runs";
import type { App, AppDeps } from "../../deps";
import { RUN_EXAMPLE } from "../../examples";
import { AgentParam, apiErrors, json, ReflectionRunSchema } from "../../schemas";

/** Most runs one page returns. */
const MAX_RUNS = 100;

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/reflections/runs",
  operationId: "listReflectionRuns",
  tags: ["reflection"],
  summary: "Recent reflection runs, newest first (trigger, questions, insights, LLM usage)",
  description:
    "The agent's most recent reflection runs, manual or triggered by accumulated importance: status, the questions asked, the insights stored and the tokens the LLM used. A failed run carries its error.",
  request: {
    params: AgentParam,
    query: z.object({ limit: z.coerce.number().int().min(1).max(MAX_RUNS).default(20) }),
  },
  responses: {
    200: json(z.object({ runs: z.array(ReflectionRunSchema) }), "Runs", { runs: [RUN_EXAMPLE] }),
    ...apiErrors.agentRead,
  },
});

export const registerReflectionRuns = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const { limit } = c.req.valid("query");
    return c.json({ runs: await listReflectionRuns(deps, agentId, limit) }, 200);
  });
