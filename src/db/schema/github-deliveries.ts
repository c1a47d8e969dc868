import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** Delivery states: `received` and `failed` still have work to do; `processed` and `ignored` are final. */
export const DELIVERY_STATUSES = ["received", "processed", "ignored", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** GitHub webhook deliveries, keyed by `X-GitHub-Delivery` so a redelivery creates nothing new. */
export const githubDeliveries = pgTable(
  "github_deliveries",
  {
    id: text("id").primaryKey(),
    event: text("event").notNull(),
    action: text("action"),
    /** received → processed | ignored | failed (failed → processed again on a retry) */
    status: text("status").$type<DeliveryStatus>().notNull().default("received"),
    reason: text("reason"),
    agentIds: text("agent_ids").array().notNull().default([]),
    /** Observations the event gave; each is stored once in every routed agent's stream. */
    observations: integer("observations").notNull().default(0),
    /** Processing attempts that failed so far. */
    attempts: integer("attempts").notNull().default(0),
    /** The parsed body; kept only while there is work to do (nulled once processed or ignored). */
    payload: jsonb("payload").$type<unknown>(),
    /**
     * SHA-256 of the signed body as received (hex): a body replayed under a new delivery id is
     * recorded as an ignored replay of this one, with no second copy of the payload. Null for
     * the replays themselves and for deliveries stored without their raw body.
     */
    payloadHash: text("payload_hash"),
    /** The highest erase position (`agent_erasures.seq`) committed when it arrived: agents erased after it get nothing from it. */
    erasureHorizon: bigint("erasure_horizon", { mode: "number" }).notNull().default(0),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("github_deliveries_received_idx").on(t.receivedAt.desc()),
    uniqueIndex("github_deliveries_payload_hash_idx").on(t.payloadHash),
    // The recovery sweep's scan: deliveries whose processing never finished.
    index("github_deliveries_pending_idx").on(t.receivedAt).where(sql`${t.status} = 'received'`),
    check(
      "github_deliveries_status_check",
      sql`${t.status} IN ('received', 'processed', 'ignored', 'failed')`,
    ),
  ],
);

export type GithubDeliveryRow = typeof githubDeliveries.$inferSelect;
