import type { Core } from "../core";
import type { EventDeliveryRow, EventSubscriptionRow } from "../db/schema";

/**
 * Every event type a subscription may name, as the outbox triggers (migration 0033) and the erasure
 * write them. `content`: whether its payload holds what was written (an erasure cancels those).
 */
export const EVENT_TYPES = {
  "memory.written": { content: true },
  "memory.enriched": { content: true },
  "memory.superseded": { content: false },
  "memory.deleted": { content: false },
  "reflection.written": { content: true },
  "lesson.written": { content: true },
  "agent.erased": { content: false },
} as const;
export type EventType = keyof typeof EVENT_TYPES;
export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as [EventType, ...EventType[]];

/** Limits of the feature, each answered with a 4xx naming it. */
export const OUTGOING_LIMITS = {
  /** Subscriptions per agent (each is a copy of every event written for it). */
  subscriptionsPerAgent: 10,
  urlChars: 2_000,
  /** A caller-given secret: 16-200 characters. */
  secretMinChars: 16,
  secretMaxChars: 200,
  descriptionChars: 500,
  /** Deliveries one page of the log returns. */
  deliveriesPage: 100,
  /** The response body read of a delivery (then the connection is dropped). */
  responseBytes: 64 * 1024,
  /** What of a failed delivery's response or error is kept on the row. */
  errorChars: 500,
  /** Log rows past their days one finished delivery removes (so each removal stays small). */
  pruneBatch: 100,
} as const;

/** What delivering needs: the core's database, logger and metrics, and the delivery settings. */
export type OutgoingDeps = Pick<Core, "db" | "clock" | "logger" | "metrics"> & {
  outgoing: {
    allowPrivate: boolean;
    timeoutMs: number;
    disableAfter: number;
    /** Days a finished delivery stays in the log. */
    logDays: number;
    /** Attempts of one delivery (the `events.deliver` job's). */
    attempts: number;
    backoffMs: number;
  };
};

/** A subscription as the API shows it (never its secret, which is shown once at creation). */
export type Subscription = {
  id: string;
  agentId: string;
  url: string;
  events: EventType[];
  description: string | null;
  status: "active" | "disabled";
  consecutiveFailures: number;
  disabledReason: string | null;
  createdAt: string;
};

export const toSubscription = (r: EventSubscriptionRow): Subscription => ({
  id: r.id,
  agentId: r.agentId,
  url: r.url,
  events: r.events as EventType[],
  description: r.description,
  status: r.status,
  consecutiveFailures: r.consecutiveFailures,
  disabledReason: r.disabledReason,
  createdAt: r.createdAt.toISOString(),
});

/** A delivery as the log shows it (its payload only while it is pending or was sent). */
export type Delivery = {
  id: string;
  subscriptionId: string;
  eventId: string;
  event: EventType;
  status: EventDeliveryRow["status"];
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
  redeliveryOf: string | null;
};

export const toDelivery = (r: EventDeliveryRow): Delivery => ({
  id: r.id,
  subscriptionId: r.subscriptionId,
  eventId: r.eventId,
  event: r.event as EventType,
  status: r.status,
  attempts: r.attempts,
  lastStatusCode: r.lastStatusCode,
  lastError: r.lastError,
  nextAttemptAt: r.status === "pending" ? r.nextAttemptAt.toISOString() : null,
  deliveredAt: r.deliveredAt?.toISOString() ?? null,
  createdAt: r.createdAt.toISOString(),
  redeliveryOf: r.redeliveryOf,
});

/**
 * The body POSTed for a delivery, built from its row alone, so every attempt of it sends the same
 * bytes (the same signature): the event's id, type, agent and time, and its data.
 */
export const deliveryBody = (r: EventDeliveryRow): string =>
  JSON.stringify({
    id: r.eventId,
    type: r.event,
    agentId: r.agentId,
    createdAt: r.createdAt.toISOString(),
    data: r.payload,
  });
