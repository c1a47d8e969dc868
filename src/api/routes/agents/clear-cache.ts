import { createRoute, z } from "@hono/zod-openapi";
import { clearAgentCache } from "../../../memory/retrieve/cache";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, json } from "../../schemas";

const route = createRoute({
  method: "delete",
  path: "/v1/agents/{agentId}/cache",
  operationId: "clearRetrieveCache",
  tags: ["retrieval"],
  summary: "Clear the agent's result cache",
  description:
    "Every process's cached retrieves of the agent stop matching: the next identical retrieve ranks again. Never needed for correctness (any write to the agent does the same); for an operator who wants fresh recency now.",
  request: { params: AgentParam },
  responses: {
    200: json(
      z.object({ agentId: z.string(), cleared: z.literal(true) }).openapi("RetrieveCacheCleared"),
      "Cleared",
      { agentId: "npc-42", cleared: true },
    ),
    ...apiErrors.agentAction,
  },
});

export const registerClearCache = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    await clearAgentCache(deps.db, agentId);
    return c.json({ agentId, cleared: true as const }, 200);
  });
