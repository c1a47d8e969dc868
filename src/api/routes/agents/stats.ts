import { createRoute, z } from "@hono/zod-openapi";
import { agentStats } from "../../../memory/agent-stats";
import type { App, AppDeps } from "../../deps";
import { STATS_EXAMPLE } from "../../examples";
import { AgentParam, apiErrors, json } from "../../schemas";

const Counts = z.object({ pending: z.number(), ready: z.number(), failed: z.number() });
const Limit = z.number().nullable();
const Spent = z.object({
  tokens: z.number(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  calls: z.number(),
});
const Limits = z
  .object({ tokens: Limit, calls: Limit })
  .openapi({ description: "Limits in force; null = unlimited" });
const Remaining = z.object({ tokens: Limit, calls: Limit }).openapi({ description: "null = unlimited" });
const KeyBudget = z
  .object({
    scope: z
      .string()
      .openapi({ description: "The key's scope: `*` (every agent), `prefix:<p>` or `exact:<id>`" }),
    limits: Limits,
    spent: Spent.openapi({ description: "What all the agents of the scope spent today" }),
    remaining: Remaining,
    exhausted: z.boolean(),
  })
  .openapi("KeyLlmBudget", {
    description: "The daily budget of an API key that opens this agent, shared by every agent of its scope",
  });
const LlmBudget = z
  .object({
    day: z.string().openapi({ description: "The UTC day counted, YYYY-MM-DD" }),
    resetsAt: z.string().openapi({ description: "When the next day's budget starts" }),
    limits: Limits.openapi({ description: "The agent's own limits; null = unlimited" }),
    spent: Spent,
    remaining: Remaining,
    keys: z.array(KeyBudget).openapi({
      description:
        "Budgets of the API keys (`MEMSTREAM_API_KEYS` `…;dailyTokens=N`) whose scope holds this agent",
    }),
    exhausted: z.boolean().openapi({
      description:
        "The agent's limit or a key's is reached: importance is scored offline, reflection and supersession wait for resetsAt",
    }),
  })
  .openapi("LlmBudgetStatus", {
    description:
      "Today's LLM spend (the provider's reported usage) against the agent's and its keys' daily budgets",
  });

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
      summary: z.number(),
    }),
    tiers: z.object({ recent: z.number(), summary: z.number(), archive: z.number() }).openapi({
      description:
        "Memories per tier: recent and summary are ranked (`total` counts them), archive holds what compaction moved behind summaries",
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
    llmBudget: LlmBudget.nullable(),
  })
  .openapi("AgentStats");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/stats",
  operationId: "getAgentStats",
  tags: ["agents"],
  summary: "Counts by kind and enrichment state, the time span, and today's LLM spend",
  description:
    "How many memories the agent has by kind and by enrichment state (importance and embedding pending, ready or failed), the creation times of the oldest and newest, and today's LLM spend against its daily budget (`llmBudget`). An agent with no memories answers zeros, not 404.",
  request: { params: AgentParam },
  responses: { 200: json(Stats, "Stats (zeros for an empty stream)", STATS_EXAMPLE), ...apiErrors.agentRead },
});

export const registerAgentStats = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await agentStats(deps, agentId), 200);
  });
