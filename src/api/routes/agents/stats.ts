import { createRoute, z } from "@hono/zod-openapi";
import { agentStats } from "../../../memory/agent-stats";
import type { App, AppDeps } from "../../deps";
import { STATS_EXAMPLE } from "../../examples";
import { AgentParam, apiErrors, json } from "../../schemas";

const Counts = z.object({ pending: z.number(), ready: z.number(), failed: z.number() });
const Stats = z
  .object({
    agentId: z.string(),
    total: z.number(),
    byKind: z.object({
      observation: z.number(),
      reflection: z.number(),
      plan: z.number(),
      document: z.number(),
      outcome: z.number(),
      lesson: z.number(),
    }),
    importance: Counts,
    embedding: Counts,
    oldest: z.string().nullable(),
    newest: z.string().nullable(),
    forgotten: z
      .number()
      .openapi({ description: "Memories deleted by retention (agent.retain job and forget), all time" }),
    retainedAt: z
      .string()
      .nullable()
      .openapi({ description: "Last run of the agent's retention policy; null = never" }),
  })
  .openapi("AgentStats");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/stats",
  operationId: "getAgentStats",
  tags: ["agents"],
  summary: "Counts by kind and enrichment state, and the time span",
  description:
    "How many memories the agent has by kind and by enrichment state (importance and embedding pending, ready or failed), and the creation times of the oldest and newest. An agent with no memories answers zeros, not 404.",
  request: { params: AgentParam },
  responses: { 200: json(Stats, "Stats (zeros for an empty stream)", STATS_EXAMPLE), ...apiErrors.agentRead },
});

export const registerAgentStats = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await agentStats(deps.memory, agentId), 200);
  });
