import { z } from "@hono/zod-openapi";
import { EVENT_DELIVERY_STATUSES } from "../../../db/schema/event-deliveries";
import { EVENT_TYPE_NAMES, OUTGOING_LIMITS } from "../../../outgoing/types";
import { AgentParam } from "../../schemas";

const ID = /^[a-z]{3}_[0-9a-z]{1,60}$/;

export const SubscriptionParams = AgentParam.extend({
  subscriptionId: z
    .string()
    .regex(ID, "a subscription id looks like sub_…")
    .openapi({ param: { name: "subscriptionId", in: "path" }, example: "sub_3n8x0q4w7f2k9d1c5b6a" }),
});

export const DeliveryParams = SubscriptionParams.extend({
  deliveryId: z
    .string()
    .regex(ID, "a delivery id looks like evd_…")
    .openapi({ param: { name: "deliveryId", in: "path" }, example: "evd_0c1f9e2a7b3d4c5e8f6a1b2c3d4e5f60" }),
});

export const EventTypeSchema = z.enum(EVENT_TYPE_NAMES).openapi("EventType");

export const SubscriptionSchema = z
  .object({
    id: z.string(),
    agentId: z.string(),
    url: z.string(),
    events: z.array(EventTypeSchema),
    description: z.string().nullable(),
    status: z.enum(["active", "disabled"]),
    consecutiveFailures: z.number().int(),
    disabledReason: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("EventSubscription");

export const SUBSCRIPTION_EXAMPLE = {
  id: "sub_3n8x0q4w7f2k9d1c5b6a",
  agentId: "github:acme/api",
  url: "https://hooks.example.com/memstream",
  events: ["memory.written", "memory.deleted", "agent.erased"],
  description: "audit log",
  status: "active",
  consecutiveFailures: 0,
  disabledReason: null,
  createdAt: "2026-11-29T12:00:00.000Z",
};

export const NewSubscriptionSchema = z
  .object({
    url: z.string().max(OUTGOING_LIMITS.urlChars).openapi({
      description: "http(s) URL events are POSTed to",
      example: "https://hooks.example.com/memstream",
    }),
    events: z
      .array(EventTypeSchema)
      .min(1)
      .max(EVENT_TYPE_NAMES.length)
      .optional()
      .openapi({ description: "Event types to send; absent = every type" }),
    secret: z
      .string()
      .min(OUTGOING_LIMITS.secretMinChars)
      .max(OUTGOING_LIMITS.secretMaxChars)
      .optional()
      .openapi({
        description: "HMAC key of X-Memstream-Signature-256; absent = a random one, answered once",
      }),
    description: z.string().max(OUTGOING_LIMITS.descriptionChars).optional(),
  })
  .strict()
  .openapi("NewEventSubscription");

export const DeliverySchema = z
  .object({
    id: z.string(),
    subscriptionId: z.string(),
    eventId: z.string(),
    event: EventTypeSchema,
    status: z.enum(EVENT_DELIVERY_STATUSES),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
    createdAt: z.string(),
    redeliveryOf: z.string().nullable(),
  })
  .openapi("EventDelivery");

export const DELIVERY_EXAMPLE = {
  id: "evd_0c1f9e2a7b3d4c5e8f6a1b2c3d4e5f60",
  subscriptionId: "sub_3n8x0q4w7f2k9d1c5b6a",
  eventId: "evt_5b2e8c1d9f0a4b3c8d7e6f5a4b3c2d1e",
  event: "memory.written",
  status: "pending",
  attempts: 1,
  lastStatusCode: 500,
  lastError: "HTTP 500: upstream unavailable",
  nextAttemptAt: "2026-11-29T12:01:00.000Z",
  deliveredAt: null,
  createdAt: "2026-11-29T12:00:00.000Z",
  redeliveryOf: null,
};
