import { createRoute, z } from "@hono/zod-openapi";
import { LIMITS } from "../../../memory/limits";
import { updateAgentSettings } from "../../../memory/update-agent-settings";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, json } from "../../schemas";

const Body = z
  .object({
    reflectionThreshold: z.number().int().min(0).max(LIMITS.maxReflectionThreshold).nullable().openapi({
      description: "Summed importance that triggers a reflection; 0 = off; null = deployment default",
    }),
  })
  .strict();

const Settings = z
  .object({
    agentId: z.string(),
    reflectionThreshold: z.number().nullable(),
    effectiveReflectionThreshold: z.number(),
  })
  .openapi("AgentSettings");

const route = createRoute({
  method: "put",
  path: "/v1/agents/{agentId}/settings",
  operationId: "updateAgentSettings",
  tags: ["agents"],
  summary: "Set the agent's settings (reflection threshold)",
  request: {
    params: AgentParam,
    body: {
      required: true,
      content: { "application/json": { schema: Body, example: { reflectionThreshold: 100 } } },
    },
  },
  responses: {
    200: json(Settings, "The settings now in force", {
      agentId: "npc-42",
      reflectionThreshold: 100,
      effectiveReflectionThreshold: 100,
    }),
    ...apiErrors.agentWrite,
  },
});

export const registerAgentSettings = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const settings = await updateAgentSettings(deps.memory, agentId, c.req.valid("json"), {
      reflectionThreshold: deps.config.reflectionThreshold,
    });
    return c.json(settings, 200);
  });
