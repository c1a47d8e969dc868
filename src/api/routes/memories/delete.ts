import { createRoute, z } from "@hono/zod-openapi";
import { deleteMemory } from "../../../memory/delete-memory";
import type { App, AppDeps } from "../../deps";
import { apiErrors, DerivedDeleted, json, MemoryParams } from "../../schemas";

const route = createRoute({
  method: "delete",
  path: "/v1/agents/{agentId}/memories/{id}",
  operationId: "deleteMemory",
  tags: ["memories"],
  summary: "Delete a memory (for good: queued enrichment never brings it back)",
  description:
    "Deletes the memory and its vectors in one transaction, and in the same transaction the reflections and lessons derived from it: every reflection or lesson citing it, then whatever cites those (docs/adr/0034). A job already queued for any of them finds no row and does nothing, so nothing comes back. Answers the memory's kind and the derived memories deleted per kind.",
  request: { params: MemoryParams },
  responses: {
    200: json(
      z.object({ id: z.string(), kind: z.string(), derived: DerivedDeleted }),
      "Deleted, with what was derived from it",
      { id: "mem_3n8x0q4w7f2k9d1c5b6a", kind: "observation", derived: { reflection: 2 } },
    ),
    ...apiErrors.agentAction,
  },
});

export const registerDeleteMemory = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId, id } = c.req.valid("param");
    return c.json(await deleteMemory(deps, agentId, id), 200);
  });
