import { createRoute, z } from "@hono/zod-openapi";
import { resetLearnedWeights } from "../../../memory/learning/reset";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, json } from "../../schemas";

const route = createRoute({
  method: "delete",
  path: "/v1/agents/{agentId}/learned-weights",
  operationId: "resetLearnedWeights",
  tags: ["retrieval"],
  summary: "Forget the weights learned from the agent's feedback",
  description:
    "The agent's retrieves rank with its defaults again (the preset's, or its own retrieval settings); later fits use only feedback given after now. Learning stays on or off as it was (`learnWeights` in PUT /settings).",
  request: { params: AgentParam },
  responses: {
    200: json(
      z.object({ agentId: z.string(), resetAt: z.string() }).openapi("LearnedWeightsReset"),
      "Forgotten",
      { agentId: "npc-42", resetAt: "2026-11-26T18:00:00.000Z" },
    ),
    ...apiErrors.agentAction,
  },
});

export const registerResetLearned = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await resetLearnedWeights(deps, agentId), 200);
  });
