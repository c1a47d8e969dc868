import { createRoute, z } from "@hono/zod-openapi";
import { DELIVERY_ID } from "../../../ingest/github/accept-delivery";
import { retryDelivery } from "../../../ingest/github/retry-delivery";
import type { App, AppDeps } from "../../deps";
import { apiErrors, errorResponse, json } from "../../schemas";

const Params = z.object({
  id: z
    .string()
    .regex(DELIVERY_ID, "a delivery id is 1-100 letters, digits and ._:-")
    .openapi({ param: { name: "id", in: "path" }, description: "X-GitHub-Delivery" }),
});

const route = createRoute({
  method: "post",
  path: "/v1/webhooks/github/deliveries/{id}/retry",
  tags: ["webhooks"],
  operationId: "retryGithubDelivery",
  summary: "Retry a received or failed GitHub delivery now",
  description:
    "Enqueues the delivery's `github.deliver` job (a no-op while one is already queued). The failed-attempt count is kept. A key with an agent prefix may only retry deliveries routed to one of its agents.",
  request: { params: Params },
  responses: {
    202: json(
      z.object({ deliveryId: z.string(), status: z.literal("queued") }).openapi("GithubDeliveryRetry"),
      "Queued",
      { deliveryId: "72d3162e-cc78-11e3-81ab-4c9367dc0958", status: "queued" },
    ),
    ...apiErrors.agentAction,
    404: errorResponse("No such delivery (or not routed to the key's agents)"),
    409: errorResponse("The delivery is already processed or ignored"),
  },
});

export const registerRetryDelivery = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await retryDelivery(deps, id, c.get("apiKey")?.scope ?? null), 202);
  });
