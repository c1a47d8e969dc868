import { createRoute, z } from "@hono/zod-openapi";
import { EVENT_DELIVERY_STATUSES } from "../../../db/schema/event-deliveries";
import { listDeliveries } from "../../../outgoing/list-deliveries";
import { OUTGOING_LIMITS } from "../../../outgoing/types";
import type { App, AppDeps } from "../../deps";
import { apiErrors, json } from "../../schemas";
import { DELIVERY_EXAMPLE, DeliverySchema, SubscriptionParams } from "./schemas";

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/subscriptions/{subscriptionId}/deliveries",
  operationId: "listEventDeliveries",
  tags: ["events"],
  summary: "A subscription's delivery log, newest first",
  description:
    "Each event sent (or to send) to the subscription: `pending` (with `nextAttemptAt`), `delivered` (a 2xx), `failed` (every attempt failed) or `cancelled` (an erasure cancelled it before it was sent), with the attempts made and the last response code or error. `before` (a delivery id) pages back.",
  request: {
    params: SubscriptionParams,
    query: z.object({
      limit: z.coerce.number().int().min(1).max(OUTGOING_LIMITS.deliveriesPage).default(20),
      status: z.enum(EVENT_DELIVERY_STATUSES).optional(),
      before: z.string().max(64).optional(),
    }),
  },
  responses: {
    200: json(z.object({ deliveries: z.array(DeliverySchema) }), "Deliveries", {
      deliveries: [DELIVERY_EXAMPLE],
    }),
    ...apiErrors.agentRead,
  },
});

export const registerListEventDeliveries = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId, subscriptionId } = c.req.valid("param");
    const query = c.req.valid("query");
    return c.json({ deliveries: await listDeliveries(deps, agentId, subscriptionId, query) }, 200);
  });
