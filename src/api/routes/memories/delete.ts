import { createRoute } from "@hono/zod-openapi";
import { deleteMemory } from "../../../memory/delete-memory";
import type { App, AppDeps } from "../../deps";
import { apiErrors, MemoryParams } from "../../schemas";

const route = createRoute({
  method: "delete",
  path: "/v1/agents/{agentId}/memories/{id}",
  operationId: "deleteMemory",
  tags: ["memories"],
  summary: "Delete a memory (for good: queued enrichment never brings it back)",
  description:
    "Deletes the memory and its vectors in one transaction. A job already queued for it finds no row and does nothing, so the memory never comes back. Reflections that cite it keep their text and citation ids.",
  request: { params: MemoryParams },
  responses: { 204: { description: "Deleted" }, ...apiErrors.agentAction },
});

export const registerDeleteMemory = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId, id } = c.req.valid("param");
    await deleteMemory(deps.memory, agentId, id);
    return c.body(null, 204);
  });
