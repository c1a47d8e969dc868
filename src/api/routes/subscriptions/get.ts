import { createRoute } from "@hono/zod-openapi";
import { getSubscription } from "../../../outgoing/get-subscription";
import type { App, AppDeps } from "../../deps";
import { apiErrors, json } from "../../schemas";
import { SUBSCRIPTION_EXAMPLE, SubscriptionParams, SubscriptionSchema } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/subscriptions/{subscriptionId}",
  operationId: "getEventSubscription",
  tags: ["events"],
  summary: "One event subscription: its URL, events, status and failures in a row",
  description: "The subscription as listed (never its secret); 404 when the agent has none by that id.",
  request: { params: SubscriptionParams },
  responses: {
    200: json(SubscriptionSchema, "The subscription", SUBSCRIPTION_EXAMPLE),
    ...apiErrors.agentRead,
  },
});

export const registerGetSubscription = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId, subscriptionId } = c.req.valid("param");
    return c.json(await getSubscription(deps, agentId, subscriptionId), 200);
  });
