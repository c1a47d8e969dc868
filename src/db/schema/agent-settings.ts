import { integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { LessonSettings } from "../../memory/lessons/settings";
import type { RankingChoice } from "../../memory/retrieve/presets";

/** Optional per-agent settings; an agent needs no row to have a stream. */
export const agentSettings = pgTable("agent_settings", {
  agentId: text("agent_id").primaryKey(),
  /** Summed importance that triggers a reflection; null = the deployment default. */
  reflectionThreshold: integer("reflection_threshold"),
  /**
   * The agent's retrieve defaults (preset, weights, decay, recencyUnit, relevance), applied to
   * fields a request leaves out; null = the service default. Validated by the settings route.
   */
  retrieval: jsonb("retrieval").$type<RankingChoice>(),
  /** Lesson consolidation (`minOutcomes`, `similarity`); null = the defaults. Validated by the settings route. */
  lessons: jsonb("lessons").$type<LessonSettings>(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
