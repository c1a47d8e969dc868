import { createRoute, z } from "@hono/zod-openapi";
import { deleteSubscription } from "../../../outgoing/delete-subscription";
import type { App, AppDeps } from "../../deps";
import { apiErrors, json } from "../../schemas";
import { SubscriptionParams } from "./schemas";

const route = createRoute({
  method: "delete",
  path: "/v1/agents/{agentId}/subscriptions/{subscriptionId}",
  operationId: "deleteEventSubscription",
  tags: ["events"],
  summary: "Unsubscribe: no more events, and the delivery log goes with it",
  description:
    "Deletes the subscription and its delivery log. Nothing more is recorded for it; a delivery already queued finds no row and sends nothing.",
  request: { params: SubscriptionParams },
  responses: {
    200: json(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted", {
      id: "sub_3n8x0q4w7f2k9d1c5b6a",
      deleted: true,
    }),
    ...apiErrors.agentAction,
  },
});

export const registerDeleteSubscription = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId, subscriptionId } = c.req.valid("param");
    return c.json(await deleteSubscription(deps, agentId, subscriptionId), 200);
  });
