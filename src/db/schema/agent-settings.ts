import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Optional per-agent settings; an agent needs no row to have a stream. */
export const agentSettings = pgTable("agent_settings", {
  agentId: text("agent_id").primaryKey(),
  /** Summed importance that triggers a reflection; null = the deployment default. */
  reflectionThreshold: integer("reflection_threshold"),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
