import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { eventSubscriptions } from "./event-subscriptions";

/** pending → delivered | failed; cancelled by an erasure (content-bearing rows). */
export const EVENT_DELIVERY_STATUSES = ["pending", "delivered", "failed", "cancelled"] as const;
export type EventDeliveryStatus = (typeof EVENT_DELIVERY_STATUSES)[number];

/**
 * The outbox and the delivery log in one: one row per event and subscription, written by the
 * triggers of migration 0033 in the transaction of the change itself (a rollback writes none),
 * then sent by `events.deliver` jobs. Times here are the database's (the triggers write them).
 */
export const eventDeliveries = pgTable(
  "event_deliveries",
  {
    agentId: text("agent_id").notNull(),
    id: text("id").notNull(),
    subscriptionId: text("subscription_id").notNull(),
    /** The event's id: the same in every subscription's copy and in a redelivery. */
    eventId: text("event_id").notNull(),
    event: text("event").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** Whether the payload holds memory content (an erasure cancels such rows and drops their payload). */
    content: boolean("content").notNull(),
    status: text("status").$type<EventDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** The delivery this one repeats (`POST …/redeliver`). */
    redeliveryOf: text("redelivery_of"),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    foreignKey({
      columns: [t.agentId, t.subscriptionId],
      foreignColumns: [eventSubscriptions.agentId, eventSubscriptions.id],
      name: "event_deliveries_subscription_fk",
    }).onDelete("cascade"),
    // The log of a subscription, newest first.
    index("event_deliveries_subscription_idx").on(t.agentId, t.subscriptionId, t.createdAt.desc()),
    // What is still to send: the sweep's scan and a write's announcement.
    index("event_deliveries_pending_idx")
      .on(t.nextAttemptAt, t.agentId, t.id)
      .where(sql`${t.status} = 'pending'`),
    index("event_deliveries_agent_pending_idx")
      .on(t.agentId, t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    check(
      "event_deliveries_status_check",
      sql`${t.status} IN ('pending', 'delivered', 'failed', 'cancelled')`,
    ),
  ],
);

export type EventDeliveryRow = typeof eventDeliveries.$inferSelect;
