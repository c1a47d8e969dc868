import { createRoute } from "@hono/zod-openapi";
import { getMemory } from "../../../memory/get-memory";
import type { App, AppDeps } from "../../deps";
import { MEMORY_EXAMPLE } from "../../examples";
import { apiErrors, json, MemoryParams, MemorySchema } from "../../schemas";

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/memories/{id}",
  operationId: "getMemory",
  tags: ["memories"],
  summary: "Get one memory",
  description:
    "One memory by id, with its enrichment status (`importance`, `embedding`: pending, ready or failed) and, for a reflection, the ids it cites. Reading it does not change its last-access time.",
  request: { params: MemoryParams },
  responses: { 200: json(MemorySchema, "The memory", MEMORY_EXAMPLE), ...apiErrors.agentRead },
});

export const registerGetMemory = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId, id } = c.req.valid("param");
    return c.json(await getMemory(deps, agentId, id), 200);
  });
