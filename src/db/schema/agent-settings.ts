import { boolean, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { LlmBudgetLimits } from "../../memory/budget/limits-shape";
import type { LearnedState } from "../../memory/learning/state";
import type { LessonSettings } from "../../memory/lessons/settings-shape";
import type { RetentionPolicy } from "../../memory/retention/policy";
import type { RankingChoice } from "../../memory/retrieve/presets";
import type { CompactionSettings } from "../../memory/tiers/settings-shape";

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
  /** What retention may delete (src/memory/retention/policy.ts); null = keep everything. */
  retention: jsonb("retention").$type<RetentionPolicy>(),
  /** Whether weights learned from the agent's feedback rank its retrieves; null = MEMSTREAM_LEARN_WEIGHTS. */
  learnWeights: boolean("learn_weights"),
  /** What learning left: adopted weights, their evidence, the last fit (src/memory/learning/state.ts). */
  learned: jsonb("learned").$type<LearnedState>(),
  /** Daily LLM limits (`dailyTokens`, `dailyCalls`); null or a field left out = the deployment default. */
  llmBudget: jsonb("llm_budget").$type<LlmBudgetLimits>(),
  /** How long identical retrieves may be answered from the result cache (ms); null = MEMSTREAM_RETRIEVE_CACHE_TTL_MS, 0 = off. */
  retrieveCacheTtlMs: integer("retrieve_cache_ttl_ms"),
  /** Compaction into summaries (src/memory/tiers/settings-shape.ts); null = the deployment default. */
  compaction: jsonb("compaction").$type<CompactionSettings>(),
  /** Memories deleted by retention so far (job and forget route), for the agent's stats. */
  forgotten: integer("forgotten").notNull().default(0),
  /** When the `agent.retain` job last ran its policy; the sweep enqueues it again an interval later. */
  retainedAt: timestamp("retained_at", { withTimezone: true, mode: "date" }),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});
