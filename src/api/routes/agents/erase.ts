import { createRoute, z } from "@hono/zod-openapi";
import { eraseAgent } from "../../../memory/erasure/erase-agent";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, json } from "../../schemas";

const route = createRoute({
  method: "delete",
  path: "/v1/agents/{agentId}",
  operationId: "eraseAgent",
  tags: ["agents"],
  summary: "Erase an agent's whole stream (memories, vectors, reflections)",
  description:
    "Deletes every memory of the agent (observations, reflections, plans, outcomes, lessons, document sections), their vectors and the agent's settings and run history; answers how many memories were deleted and the id of the erasure's receipt (GET /v1/agents/{agentId}/erasures/{id}: counts per table and kind, the epoch, the pending work cancelled; no content; kept after the data is gone). It cannot be undone.",
  request: { params: AgentParam },
  responses: {
    200: json(
      z.object({
        deleted: z.number().int(),
        erasureId: z.string().openapi({ description: "The receipt: GET /v1/agents/{agentId}/erasures/{id}" }),
      }),
      "Erased",
      { deleted: 120, erasureId: "era_3n8x0q4w7f2k9d1c5b6a" },
    ),
    ...apiErrors.agentAction,
  },
});

export const registerEraseAgent = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await eraseAgent(deps, agentId), 200);
  });
