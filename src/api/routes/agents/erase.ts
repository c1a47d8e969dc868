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
    "Deletes every memory of the agent (observations, reflections, plans, outcomes, lessons, document sections), their vectors and the agent's settings and run history; answers how many memories were deleted. It cannot be undone.",
  request: { params: AgentParam },
  responses: {
    200: json(z.object({ deleted: z.number().int() }), "Erased", { deleted: 120 }),
    ...apiErrors.agentAction,
  },
});

export const registerEraseAgent = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await eraseAgent(deps.memory, agentId), 200);
  });
