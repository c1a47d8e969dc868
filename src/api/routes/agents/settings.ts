import { createRoute, z } from "@hono/zod-openapi";
import { NO_LEARNING } from "../../../memory/learning/state";
import { MIN_OUTCOMES_RANGE } from "../../../memory/lessons/settings";
import { DEFAULT_SIMILARITY } from "../../../memory/lessons/similarity";
import { LIMITS } from "../../../memory/limits";
import { COMPACTION_DEFAULTS } from "../../../memory/tiers/settings-shape";
import { getAgentSettings, updateAgentSettings } from "../../../memory/update-agent-settings";
import type { App, AppDeps } from "../../deps";
import { RANKING_EXAMPLE } from "../../examples";
import { RankingFields, RankingInForce } from "../../ranking-schemas";
import { RetentionPolicySchema } from "../../retention-schemas";
import { AgentParam, apiErrors, json } from "../../schemas";
import { CompactionSchema } from "../../tier-schemas";

const Retrieval = z.object(RankingFields).strict().openapi("RetrievalDefaults", {
  description: "Retrieve defaults for this agent: used for fields a retrieve request leaves out",
});

const Lessons = z
  .object({
    minOutcomes: z
      .number()
      .int()
      .min(MIN_OUTCOMES_RANGE.min)
      .max(MIN_OUTCOMES_RANGE.max)
      .optional()
      .openapi({ description: "Similar outcomes of one task type before a lesson is written; default 3" }),
    similarity: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .openapi({
        description: `Cosine between task embeddings at or above which outcomes are the same task; default ${DEFAULT_SIMILARITY} (calibrated for use-lite-512)`,
      }),
  })
  .strict()
  .openapi("LessonSettings", { description: "Lesson consolidation; a field left out takes its default" });

const DailyLimit = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const LlmBudget = z
  .object({
    dailyTokens: DailyLimit.optional().openapi({
      description:
        "Prompt plus completion tokens per UTC day, as the provider reports them; 0 = unlimited; absent = MEMSTREAM_LLM_DAILY_TOKENS",
    }),
    dailyCalls: DailyLimit.optional().openapi({
      description: "Chat completions per UTC day; 0 = unlimited; absent = MEMSTREAM_LLM_DAILY_CALLS",
    }),
  })
  .strict()
  .openapi("LlmBudgetSettings", {
    description:
      "The agent's daily LLM budget. Past it importance is scored offline (importanceSource `budget:offline:…`), reflection and supersession wait for the next day, lessons take the template wording",
  });

const Body = z
  .object({
    reflectionThreshold: z
      .number()
      .int()
      .min(0)
      .max(LIMITS.maxReflectionThreshold)
      .nullable()
      .optional()
      .openapi({
        description:
          "Summed importance that triggers a reflection; 0 = off; null = deployment default; absent = unchanged",
      }),
    retrieval: Retrieval.nullable().optional().openapi({
      description:
        "The agent's retrieve defaults, replacing earlier ones; null = service default; absent = unchanged",
    }),
    lessons: Lessons.nullable().optional().openapi({
      description:
        "Lesson consolidation settings, replacing earlier ones; null = defaults; absent = unchanged",
    }),
    retention: RetentionPolicySchema.nullable().optional().openapi({
      description:
        "Retention policy applied by the agent.retain job (every MEMSTREAM_RETENTION_INTERVAL_MS), replacing an earlier one; null = keep everything; absent = unchanged",
    }),
    learnWeights: z.boolean().nullable().optional().openapi({
      description:
        "Whether weights learned from the agent's feedback (POST /feedback) are fitted and rank its retrieves (request weights still win); null = MEMSTREAM_LEARN_WEIGHTS; absent = unchanged",
    }),
    llmBudget: LlmBudget.nullable().optional().openapi({
      description:
        "Daily LLM limits, replacing earlier ones; null = the deployment defaults; absent = unchanged",
    }),
    retrieveCacheTtlMs: z
      .number()
      .int()
      .min(0)
      .max(LIMITS.maxRetrieveCacheTtlMs)
      .nullable()
      .optional()
      .openapi({
        description:
          "How long identical retrieves may be answered from the result cache (ms; any write to the agent invalidates at once); 0 = off; null = MEMSTREAM_RETRIEVE_CACHE_TTL_MS; absent = unchanged",
      }),
    compaction: CompactionSchema.nullable().optional().openapi({
      description:
        "Compaction into summaries, run by the agent.retain job (every MEMSTREAM_RETENTION_INTERVAL_MS) and by POST …/maintenance, replacing earlier settings; null = off (the default); absent = unchanged",
    }),
  })
  .strict();

const WeightsOut = z.object({ recency: z.number(), importance: z.number(), relevance: z.number() });

const Learned = z
  .object({
    weights: WeightsOut.nullable().openapi({
      description: "The adopted weights; null until a fit passed the guardrails (or after a reset)",
    }),
    events: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Feedback events the adopted weights were fitted on" }),
    heldOutGain: z.number().nullable().openapi({
      description: "Pairwise accuracy they gained on the held-out (newest) feedback over the weights before",
    }),
    fittedAt: z.string().nullable(),
    lastFit: z
      .object({
        at: z.string(),
        events: z.number().int(),
        heldOutEvents: z.number().int(),
        heldOut: z.object({ current: z.number(), proposed: z.number(), gain: z.number() }),
        heldOutRecall: z
          .object({
            current: z.number().nullable(),
            proposed: z.number().nullable(),
            gain: z.number().nullable(),
          })
          .optional()
          .openapi({
            description:
              "Recall of the used memories on the held-out feedback (each event's logged candidates re-ranked, its returned count kept), current and proposed; adopted only when it rises. Null: no held-out event used a memory",
          }),
        proposed: WeightsOut,
        adopted: z.boolean(),
        refused: z.string().nullable().openapi({ description: "Why the guardrails refused it" }),
      })
      .nullable()
      .openapi({ description: "The last fit tried, adopted or not" }),
    resetAt: z
      .string()
      .nullable()
      .openapi({ description: "Feedback before it is not used (DELETE /learned-weights)" }),
  })
  .openapi("LearnedWeights");

const Settings = z
  .object({
    agentId: z.string(),
    reflectionThreshold: z.number().nullable(),
    effectiveReflectionThreshold: z.number(),
    retrieval: Retrieval.nullable(),
    effectiveRetrieval: RankingInForce,
    lessons: Lessons.nullable(),
    effectiveLessons: z.object({ minOutcomes: z.number(), similarity: z.number() }),
    retention: RetentionPolicySchema.nullable(),
    learnWeights: z.boolean().nullable(),
    effectiveLearnWeights: z.boolean(),
    learned: Learned,
    llmBudget: LlmBudget.nullable(),
    effectiveLlmBudget: z.object({ dailyTokens: z.number(), dailyCalls: z.number() }).openapi({
      description: "The daily limits in force (0 = unlimited)",
    }),
    retrieveCacheTtlMs: z.number().nullable(),
    effectiveRetrieveCacheTtlMs: z
      .number()
      .openapi({ description: "The result cache's TTL in force (ms; 0 = off)" }),
    compaction: CompactionSchema.nullable(),
    effectiveCompaction: z
      .object({ afterDays: z.number().nullable(), groupMax: z.number(), promoteAfter: z.number() })
      .openapi({ description: "The compaction settings in force (afterDays null = off)" }),
  })
  .openapi("AgentSettings");

// Shaped like a real answer (the docs page reads it).
const SETTINGS_EXAMPLE = {
  agentId: "npc-42",
  reflectionThreshold: 100,
  effectiveReflectionThreshold: 100,
  retrieval: null,
  effectiveRetrieval: RANKING_EXAMPLE,
  lessons: { minOutcomes: 3 },
  effectiveLessons: { minOutcomes: 3, similarity: DEFAULT_SIMILARITY },
  retention: { maxMemories: 10_000, keepImportanceAtLeast: 8 },
  learnWeights: null,
  effectiveLearnWeights: true,
  learned: NO_LEARNING,
  llmBudget: { dailyTokens: 200_000 },
  effectiveLlmBudget: { dailyTokens: 200_000, dailyCalls: 0 },
  retrieveCacheTtlMs: null,
  effectiveRetrieveCacheTtlMs: 30_000,
  compaction: { afterDays: 30 },
  effectiveCompaction: {
    afterDays: 30,
    groupMax: COMPACTION_DEFAULTS.groupMax,
    promoteAfter: COMPACTION_DEFAULTS.promoteAfter,
  },
};

const put = createRoute({
  method: "put",
  path: "/v1/agents/{agentId}/settings",
  operationId: "updateAgentSettings",
  tags: ["agents"],
  summary:
    "Set the agent's settings (reflection threshold, retrieve defaults, retention, lesson consolidation, LLM budget)",
  description:
    "Changes the fields given: a field left out keeps its stored value, `null` returns it to the deployment default. Answers the stored settings and the values now in force (`effective…`). Retrieve defaults apply to the next retrieve; a retention policy on the next `agent.retain` run.",
  request: {
    params: AgentParam,
    body: {
      required: true,
      content: { "application/json": { schema: Body, example: { reflectionThreshold: 100 } } },
    },
  },
  responses: {
    200: json(Settings, "The settings now in force", SETTINGS_EXAMPLE),
    ...apiErrors.agentWrite,
  },
});

const get = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/settings",
  operationId: "getAgentSettings",
  tags: ["agents"],
  summary: "The agent's settings and the values in force",
  description:
    "The settings stored for the agent (each null when not set) and the values in force (`effective…`: the stored value, else the deployment default).",
  request: { params: AgentParam },
  responses: { 200: json(Settings, "The settings in force", SETTINGS_EXAMPLE), ...apiErrors.agentRead },
});

export const registerAgentSettings = (app: App, deps: AppDeps) => {
  const defaults = () => ({
    reflectionThreshold: deps.config.reflectionThreshold,
    learnWeights: deps.config.learning.enabled,
    llmBudget: deps.config.llmBudget,
    retrieveCacheTtlMs: deps.config.retrieveCache.ttlMs,
  });
  app.openapi(put, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await updateAgentSettings(deps, agentId, c.req.valid("json"), defaults()), 200);
  });
  app.openapi(get, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await getAgentSettings(deps, agentId, defaults()), 200);
  });
};
