import { index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** GitHub webhook deliveries, keyed by `X-GitHub-Delivery` so a redelivery creates nothing new. */
export const githubDeliveries = pgTable(
  "github_deliveries",
  {
    id: text("id").primaryKey(),
    event: text("event").notNull(),
    action: text("action"),
    /** received → processed | ignored | failed */
    status: text("status").notNull().default("received"),
    reason: text("reason"),
    agentIds: text("agent_ids").array().notNull().default([]),
    observations: integer("observations").notNull().default(0),
    payload: jsonb("payload").$type<unknown>(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("github_deliveries_received_idx").on(t.receivedAt.desc())],
);
