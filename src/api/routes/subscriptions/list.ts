import { createRoute, z } from "@hono/zod-openapi";
import { listSubscriptions } from "../../../outgoing/list-subscriptions";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, json } from "../../schemas";
import { SUBSCRIPTION_EXAMPLE, SubscriptionSchema } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/subscriptions",
  operationId: "listEventSubscriptions",
  tags: ["events"],
  summary: "The agent's event subscriptions (never their secrets)",
  description:
    "Every subscription of the agent, oldest first: URL, event types, `active` or `disabled` (after MEMSTREAM_EVENTS_DISABLE_AFTER deliveries in a row failed for good) and the failures in a row so far. The secret is never shown again after creation.",
  request: { params: AgentParam },
  responses: {
    200: json(z.object({ subscriptions: z.array(SubscriptionSchema) }), "Subscriptions, oldest first", {
      subscriptions: [SUBSCRIPTION_EXAMPLE],
    }),
    ...apiErrors.agentRead,
  },
});

export const registerListSubscriptions = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json({ subscriptions: await listSubscriptions(deps, agentId) }, 200);
  });
