import { createRoute, z } from "@hono/zod-openapi";
import { createSubscription } from "../../../outgoing/create-subscription";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, json } from "../../schemas";
import { NewSubscriptionSchema, SUBSCRIPTION_EXAMPLE, SubscriptionSchema } from "./schemas";

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/subscriptions",
  operationId: "createEventSubscription",
  tags: ["events"],
  summary: "Subscribe a URL to the agent's events (signed POSTs, retried; docs/events.md)",
  description:
    "From the next committed write on, each event of the named types (memory written, enriched, superseded, deleted; reflection and lesson written; agent erased) is POSTed to `url` as JSON, signed with `X-Memstream-Signature-256: sha256=<HMAC-SHA256 of the raw body>` under the subscription's secret, with `X-Memstream-Event` and `X-Memstream-Delivery`. The answer carries the secret: the only time it is shown. At most 10 subscriptions per agent. Loopback, private and link-local addresses are refused unless the server allows them (MEMSTREAM_EVENTS_ALLOW_PRIVATE).",
  request: {
    params: AgentParam,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: NewSubscriptionSchema,
          example: {
            url: "https://hooks.example.com/memstream",
            events: ["memory.written", "memory.deleted", "agent.erased"],
            description: "audit log",
          },
        },
      },
    },
  },
  responses: {
    201: json(
      SubscriptionSchema.extend({ secret: z.string() }).openapi("CreatedEventSubscription"),
      "Subscribed; `secret` is shown this once",
      {
        ...SUBSCRIPTION_EXAMPLE,
        secret: "whsec_9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      },
    ),
    ...apiErrors.agentWrite,
  },
});

export const registerCreateSubscription = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const body = c.req.valid("json");
    const opts = { allowPrivate: deps.config.outgoing.allowPrivate };
    return c.json(await createSubscription(deps, opts, agentId, body), 201);
  });
