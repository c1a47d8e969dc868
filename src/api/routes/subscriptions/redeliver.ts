import { createRoute } from "@hono/zod-openapi";
import { redeliver } from "../../../outgoing/redeliver";
import type { App, AppDeps } from "../../deps";
import { apiErrors, errorResponse, json } from "../../schemas";
import { DELIVERY_EXAMPLE, DeliveryParams, DeliverySchema } from "./schemas";

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/subscriptions/{subscriptionId}/deliveries/{deliveryId}/redeliver",
  operationId: "redeliverEvent",
  tags: ["events"],
  summary: "Send a logged delivery's event again, as a new delivery",
  description:
    "A new delivery of the same event (same event id and body data, its own delivery id and attempts, `redeliveryOf` naming the first), queued at once. Refused with 409 for a pending delivery, one an erasure cancelled, or a disabled subscription.",
  request: { params: DeliveryParams },
  responses: {
    202: json(DeliverySchema, "Queued", {
      ...DELIVERY_EXAMPLE,
      id: "evd_7d1e2f3a4b5c6d7e8f9a0b1c2d3e4f50",
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      redeliveryOf: DELIVERY_EXAMPLE.id,
    }),
    ...apiErrors.agentAction,
    409: errorResponse("The delivery is pending or cancelled, or the subscription is disabled (`conflict`)"),
  },
});

export const registerRedeliver = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId, subscriptionId, deliveryId } = c.req.valid("param");
    return c.json(await redeliver(deps, agentId, subscriptionId, deliveryId), 202);
  });
