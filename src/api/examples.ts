/**
 * Response examples for the OpenAPI document (and so the /docs page): one realistic value per
 * shape, shared by the routes that answer it. `test/api/docs.test.ts` requires one per operation.
 */
import { DEFAULT_PRESET, PRESETS } from "../memory/retrieve/presets";

export const MEMORY_EXAMPLE = {
  id: "mem_3n8x0q4w7f2k9d1c5b6a",
  agentId: "npc-42",
  kind: "observation",
  description: "Isabella is planning a Valentine's Day party at Hobbs Cafe",
  createdAt: "2026-02-10T09:00:00.000Z",
  lastAccessedAt: "2026-02-10T09:00:00.000Z",
  importance: 6,
  importanceSource: "llm:gpt-4o-mini",
  embeddingModel: "use-lite-512",
  metadata: { location: "Hobbs Cafe" },
  citations: [],
  supersededBy: null,
  validUntil: null,
  expiresAt: null,
  status: { importance: "ready", embedding: "ready" },
};

export const SCORED_MEMORY_EXAMPLE = {
  ...MEMORY_EXAMPLE,
  score: 2.41,
  scores: { recency: 0.93, importance: 0.56, relevance: 0.92, lift: 0, subject: 0, similarity: null },
  duplicates: 0,
};

export const RUN_EXAMPLE = {
  id: "ref_7c2m9x4q1w8e5r3t6y0u",
  agentId: "npc-42",
  trigger: "manual",
  status: "succeeded",
  promptVersion: "v1",
  questions: ["What is Isabella preparing for?"],
  insightIds: ["mem_9k2j4h6g8f0d1s3a5p7o"],
  usage: { promptTokens: 1840, completionTokens: 212, llmCalls: 2 },
  error: null,
  startedAt: "2026-02-13T18:00:00.000Z",
  finishedAt: "2026-02-13T18:00:04.000Z",
};

export const REFLECTION_EXAMPLE = {
  ...MEMORY_EXAMPLE,
  id: "mem_9k2j4h6g8f0d1s3a5p7o",
  kind: "reflection",
  description: "Isabella is devoted to bringing the town together at Hobbs Cafe",
  importance: null,
  importanceSource: null,
  embeddingModel: null,
  metadata: {},
  citations: ["mem_3n8x0q4w7f2k9d1c5b6a"],
  supersededBy: null,
  validUntil: null,
  expiresAt: null,
  status: { importance: "pending", embedding: "pending" },
};

export const STATS_EXAMPLE = {
  agentId: "npc-42",
  total: 120,
  byKind: { observation: 107, reflection: 8, plan: 0, document: 0, outcome: 4, lesson: 1, summary: 0 },
  tiers: { recent: 120, summary: 0, archive: 0 },
  importance: { pending: 2, ready: 118, failed: 0 },
  embedding: { pending: 3, ready: 117, failed: 0 },
  oldest: "2026-02-01T08:00:00.000Z",
  newest: "2026-02-13T17:55:00.000Z",
  forgotten: 0,
  retainedAt: null,
  llmBudget: {
    day: "2026-02-13",
    resetsAt: "2026-02-14T00:00:00.000Z",
    limits: { tokens: 200_000, calls: null },
    spent: { tokens: 48_210, promptTokens: 45_900, completionTokens: 2_310, calls: 131 },
    remaining: { tokens: 151_790, calls: null },
    keys: [
      {
        scope: "prefix:npc-",
        limits: { tokens: 2_000_000, calls: null },
        spent: { tokens: 913_400, promptTokens: 871_050, completionTokens: 42_350, calls: 2_480 },
        remaining: { tokens: 1_086_600, calls: null },
        exhausted: false,
      },
    ],
    exhausted: false,
  },
};

export const DELIVERY_EXAMPLE = {
  id: "72d3162e-cc78-11e3-81ab-4c9367dc0958",
  event: "pull_request",
  action: "opened",
  status: "processed",
  reason: null,
  agentIds: ["github:acme/api"],
  observations: 1,
  attempts: 1,
  receivedAt: "2026-02-13T18:00:00.000Z",
  processedAt: "2026-02-13T18:00:01.000Z",
};

/** The ranking in force with no request or agent values: the service default preset. */
export const RANKING_EXAMPLE = {
  preset: DEFAULT_PRESET,
  ...PRESETS[DEFAULT_PRESET],
  source: {
    preset: "default",
    weights: "preset",
    decay: "preset",
    recencyUnit: "preset",
    relevance: "preset",
    vectorShare: "preset",
    timeFilter: "preset",
    scaleFloors: "preset",
    versions: "preset",
    collapseDuplicates: "preset",
    subjects: "preset",
  },
};

export const OUTCOME_EXAMPLE = {
  ...MEMORY_EXAMPLE,
  id: "mem_5d1s8k2p0w4q7x3c9v6b",
  kind: "outcome",
  description:
    'Failed task (deploy) "Deploy the billing service to staging" using in-place restart in 41 s: port 8080 already in use',
  importance: 6,
  importanceSource: "outcome",
  embeddingModel: null,
  metadata: {},
  status: { importance: "ready", embedding: "pending" },
  outcome: {
    task: "Deploy the billing service to staging",
    taskType: "deploy",
    success: false,
    strategy: "in-place restart",
    error: "port 8080 already in use",
    durationMs: 41000,
  },
};

export const LESSON_EXAMPLE = {
  id: "mem_8h3n6b1v9c4x2z7m5k0j",
  agentId: "npc-42",
  taskType: "deploy",
  polarity: "heuristic",
  description:
    'Lesson for deploy tasks like "Deploy the billing service to staging": blue-green deploy works (1 of 1 attempts succeeded). Avoid in-place restart: it failed 2 times with "port 8080 already in use".',
  confidence: 0.67,
  revision: 1,
  stats: {
    outcomes: 3,
    successes: 1,
    strategies: [
      {
        strategy: "in-place restart",
        attempts: 2,
        successes: 0,
        failures: 2,
        errors: [{ error: "port 8080 already in use", count: 2 }],
      },
      { strategy: "blue-green deploy", attempts: 1, successes: 1, failures: 0, errors: [] },
    ],
  },
  citations: ["mem_5d1s8k2p0w4q7x3c9v6b", "mem_2f7g1h5j9k3l8z4x6c0v", "mem_0q9w8e7r6t5y4u3i2o1p"],
  wording: "template:v1",
  importance: 8,
  createdAt: "2026-02-13T18:00:02.000Z",
  updatedAt: "2026-02-13T18:00:02.000Z",
};
