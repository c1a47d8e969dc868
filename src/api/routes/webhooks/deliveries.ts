import { createRoute, z } from "@hono/zod-openapi";
import { DELIVERY_STATUSES } from "../../../db/schema";
import { listDeliveries } from "../../../ingest/github/list-deliveries";
import { LIMITS } from "../../../memory/limits";
import type { App, AppDeps } from "../../deps";
import { DELIVERY_EXAMPLE } from "../../examples";
import { apiErrors, json } from "../../schemas";

const Query = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.maxPageSize).default(50),
  status: z.enum(DELIVERY_STATUSES).optional(),
});

const Delivery = z
  .object({
    id: z.string().openapi({ description: "X-GitHub-Delivery" }),
    event: z.string(),
    action: z.string().nullable(),
    status: z.enum(DELIVERY_STATUSES),
    reason: z.string().nullable().openapi({ description: "Why it was ignored or failed" }),
    agentIds: z.array(z.string()),
    observations: z.number().int(),
    attempts: z.number().int(),
    receivedAt: z.string(),
    processedAt: z.string().nullable(),
  })
  .openapi("GithubDelivery");

const route = createRoute({
  method: "get",
  path: "/v1/webhooks/github/deliveries",
  operationId: "listGithubDeliveries",
  tags: ["webhooks"],
  summary: "Recent GitHub deliveries and their status, newest first",
  description:
    "A scoped key sees only deliveries routed to at least one of its agents, and of each delivery's agents only its own. Payloads are never listed.",
  request: { query: Query },
  responses: {
    200: json(z.object({ deliveries: z.array(Delivery) }), "Deliveries", { deliveries: [DELIVERY_EXAMPLE] }),
    ...apiErrors.read,
  },
});

export const registerListDeliveries = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const q = c.req.valid("query");
    const scope = c.get("apiKey")?.scope;
    return c.json({ deliveries: await listDeliveries(deps, { ...q, scope }) }, 200);
  });
