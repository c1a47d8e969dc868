import { sql } from "drizzle-orm";
import { check, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * A URL subscribed to some of an agent's outgoing events (src/outgoing). Distributed on agent_id
 * with the memories: the triggers that write the outbox (migration 0033) read it on the shard of
 * the row that changed. `events` names the event types sent (never empty).
 * `active` → `disabled` after too many consecutive failed deliveries (no event is written for it then).
 */
export const eventSubscriptions = pgTable(
  "event_subscriptions",
  {
    agentId: text("agent_id").notNull(),
    id: text("id").notNull(),
    url: text("url").notNull(),
    /** HMAC-SHA256 key of `X-Memstream-Signature-256`; shown once, at creation. */
    secret: text("secret").notNull(),
    events: text("events").array().notNull(),
    description: text("description"),
    status: text("status").$type<"active" | "disabled">().notNull().default("active"),
    /** Deliveries that failed for good in a row (reset by one that succeeds). */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    disabledReason: text("disabled_reason"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.agentId, t.id] }),
    check("event_subscriptions_status_check", sql`${t.status} IN ('active', 'disabled')`),
  ],
);

export type EventSubscriptionRow = typeof eventSubscriptions.$inferSelect;
