import { createRoute, z } from "@hono/zod-openapi";
import { Text } from "../../../lib/storable";
import { CONTEXT_DEFAULT_K, retrieveContext } from "../../../memory/context/retrieve-context";
import { TOKEN_ENCODINGS } from "../../../memory/context/tokens";
import { LIMITS } from "../../../memory/limits";
import { DEFAULT_PRESET } from "../../../memory/retrieve/presets";
import { BM25, HYBRID_VECTOR_SHARE } from "../../../memory/retrieve/ranking/relevance/kinds";
import { RETRIEVE_DEFAULTS, retrieve } from "../../../memory/retrieve/retrieve";
import { EXPAND_DEFAULTS } from "../../../memory/tiers/expand";
import type { App, AppDeps } from "../../deps";
import { RANKING_EXAMPLE, SCORED_MEMORY_EXAMPLE } from "../../examples";
import { RankingFields, RetrieveRanking } from "../../ranking-schemas";
import {
  AgentParam,
  apiErrors,
  errorResponse,
  IsoTime,
  json,
  Kind,
  MemorySchema,
  Metadata,
  ModelId,
  TierSchema,
  Vector,
} from "../../schemas";

/** Sections per request: a prompt block has a few parts (lessons, reflections, observations…). */
const MAX_SECTIONS = 8;

const ContextSection = z
  .object({
    kinds: z
      .array(Kind)
      .min(1)
      .optional()
      .openapi({ description: "Kinds in this section; absent = every kind no other section names" }),
    k: z.number().int().min(1).max(LIMITS.maxK).optional().openapi({
      description: "Candidates ranked for this section; default the request's k (or its default)",
    }),
    title: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[^\n\r]+$/, "one line")
      .optional()
      .openapi({
        description:
          'Header line of the section in the text block; default from its kinds, e.g. "Reflections (most relevant first)"',
      }),
  })
  .strict()
  .openapi("ContextSection");

const RetrieveBody = z
  .object({
    query: Text({ max: LIMITS.queryChars, name: "query" })
      .optional()
      .openapi({ example: "CI is failing on main again" }),
    queryEmbedding: Vector.optional(),
    embeddingModel: ModelId.optional(),
    // No zod default: with maxTokens an absent k means "let the budget decide" (CONTEXT_DEFAULT_K).
    k: z
      .number()
      .int()
      .min(1)
      .max(LIMITS.maxK)
      .optional()
      .openapi({
        description: `Results; default ${RETRIEVE_DEFAULTS.k}, or ${CONTEXT_DEFAULT_K} candidates when maxTokens is given`,
      }),
    ...RankingFields,
    now: IsoTime.optional(),
    asOf: IsoTime.optional().openapi({
      description:
        "Recall as of this time: only memories created at or before it are candidates; a memory counts as superseded only if its replacement existed by then; recency reads each memory's last access known to precede it (else its createdAt); the version lift and the time filter are judged at it (it is the retrieve's now, so not with `now`, nor with mode fast). Nothing is touched or logged (feedback on its retrievalId is a 404). Memories deleted since are gone for good",
      example: "2026-02-01T00:00:00Z",
    }),
    // No zod default here or below: a `default` in the document makes openapi-typescript (its defaults) require the field.
    touch: z
      .boolean()
      .optional()
      .openapi({
        description: `Mark the returned memories as accessed now (lastAccessedAt); default ${RETRIEVE_DEFAULTS.touch}`,
      }),
    waitSearchableMs: z
      .number()
      .int()
      .min(0)
      .max(LIMITS.maxWaitSearchableMs)
      .optional()
      .openapi({
        description: `Wait up to this many ms (at most ${LIMITS.maxWaitSearchableMs}) until every memory of the agent written before this retrieve has its vector, then rank; \`freshness.waited\` says how long and whether everything became searchable. Default 0: rank at once`,
        example: 2000,
      }),
    kinds: z.array(Kind).min(1).optional(),
    tiers: z
      .array(TierSchema.exclude(["archive"]))
      .min(1)
      .optional()
      .openapi({
        description:
          "The ranked tiers: `recent` (every kind but summaries) and `summary` (what compaction wrote); default both. Archived memories are reached through `expand`, or listed with GET …/memories?tiers=archive",
      }),
    expand: z
      .union([z.boolean(), z.number().int().min(1).max(EXPAND_DEFAULTS.max)])
      .optional()
      .openapi({
        description: `Each summary that ranks carries \`expanded\`: its archived members, best first by cosine to the query (else importance, then recency); true = ${EXPAND_DEFAULTS.perSummary} each, a number = that many (at most ${EXPAND_DEFAULTS.max}). With touch, an expansion counts as an access of the member, and one expanded the agent's compaction.promoteAfter times moves back to the ranked stream`,
      }),
    flatten: z
      .boolean()
      .optional()
      .openapi({
        description: `Replace each summary that ranks by its archived members (\`expandedFrom\` names the summary): a member scores its summary's score × (0.5 + 0.5 × its relevance among the expanded members), and the answer is the top k of them and the other ranked memories. Expands ${EXPAND_DEFAULTS.max} members a summary unless \`expand\` gives a number; with touch, only the members answered count as expanded`,
      }),
    mode: z
      .enum(["auto", "exact", "fast"])
      .optional()
      .openapi({
        description:
          `Default ${RETRIEVE_DEFAULTS.mode}. ` +
          "auto ranks in phases where the ranking allows it (hybrid or contextual relevance with a query vector, no filters or sections: the formula on seeds from the HNSW, GIN and recency indexes, bounded by the query rather than the stream, docs/adr/0032), else exactly; exact ranks every candidate by the formula; fast runs a threshold search over the HNSW and recency/importance indexes (exact as far as HNSW is), for streams of at least MEMSTREAM_FAST_MIN_STREAM memories and MEMSTREAM_FAST_MIN_SHARE of the model's indexed vectors, ranking smaller ones exactly (with or without an index). The response's mode says which ran, ranking.plan which statement",
      }),
    filters: z
      .object({ since: IsoTime.optional(), until: IsoTime.optional(), metadata: Metadata.optional() })
      .strict()
      .optional(),
    maxTokens: z.number().int().min(1).max(LIMITS.maxContextTokens).optional().openapi({
      description:
        "Return the best-first prefix whose text block (format text) fits in this many tokens, counted with the configured encoding",
    }),
    sections: z
      .array(ContextSection)
      .min(1)
      .max(MAX_SECTIONS)
      .optional()
      .openapi({
        description: `A context block in sections (at most ${MAX_SECTIONS}), in this order, under one maxTokens: e.g. lessons, then reflections, then observations. Each memory goes to the section naming its kind (a kind in one section only; a section without kinds takes every kind no section names), each section ranks its own top k. The budget goes to section 0's best-first prefix, then section 1's from what is left, and so on. Not with kinds or mode fast.`,
        example: [{ kinds: ["reflection"], k: 5 }, { kinds: ["observation", "document"] }],
      }),
    format: z
      .enum(["json", "text"])
      .optional()
      .openapi({ description: '"text" adds `context.text`, a prompt-ready block of the returned memories' }),
  })
  .strict()
  .openapi("RetrieveRequest");

const Context = z
  .object({
    text: z.string().optional(),
    tokens: z.number().int(),
    encoding: z.enum(TOKEN_ENCODINGS),
    truncated: z.boolean(),
    sections: z
      .array(
        z.object({
          title: z.string(),
          kinds: z.array(z.string()).nullable(),
          count: z.number().int(),
          truncated: z.boolean(),
        }),
      )
      .optional()
      .openapi({
        description:
          "Per section (requests with sections): header, kinds, memories returned, cut by the budget",
      }),
  })
  .openapi("RetrieveContext");

const Freshness = z
  .object({
    pending: z.number().int().openapi({
      description:
        "The agent's memories still waiting for their vector when this retrieve read the stream (not searchable by meaning yet)",
    }),
    oldestPendingMs: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Age of the oldest of them, ms since it was written; null with none" }),
    embeddedInline: z.number().int().openapi({
      description:
        "Of the candidates among them, how many this retrieve embedded itself and ranked by meaning (read your own writes, MEMSTREAM_RETRIEVE_EMBED_PENDING)",
    }),
    waited: z.object({ ms: z.number().int(), complete: z.boolean() }).optional().openapi({
      description:
        "With waitSearchableMs: how long it waited, and whether every memory written before it became searchable",
    }),
  })
  .openapi("RetrieveFreshness");

const Scored = MemorySchema.extend({
  score: z.number(),
  scores: z.object({
    recency: z.number(),
    importance: z.number(),
    relevance: z.number(),
    lift: z.number().openapi({ description: "The score a version lift added (ranking.lift; 0 otherwise)" }),
    subject: z.number().openapi({
      description:
        "The score the subject lift added (the memory starts with a name the question gives; 0 otherwise)",
    }),
    similarity: z.number().nullable().openapi({
      description:
        "The cosine similarity of the memory's vector to the query's, unscaled (relevance vector); null with another relevance or when the memory has no vector of the query's model. Comparable across retrieves and agents, where the scaled components are not",
    }),
  }),
  duplicates: z.number().int().openapi({
    description:
      "How many duplicates of this memory (same kind and description but for case, spacing and punctuation), ranked among the best, it stands for (collapseDuplicates on, as in the default; 0 otherwise)",
  }),
  section: z
    .number()
    .int()
    .optional()
    .openapi({ description: "Index of its section (requests with sections)" }),
  expandedFrom: z.string().optional().openapi({
    description: "In a flattened answer (`flatten`): the summary this archived member was expanded from",
  }),
  expanded: z
    .array(
      MemorySchema.extend({
        similarity: z.number().nullable(),
        relevance: z.number().openapi({
          description:
            "Hybrid relevance to the query (0.6 × cosine + 0.4 × shared words, each scaled over every member this retrieve expanded), 0–1",
        }),
      }).openapi("ExpandedMemory"),
    )
    .optional()
    .openapi({
      description:
        "A summary's archived members, best first, with their cosine to the query (null without a query vector of their model); present on summaries when the request asked to `expand`",
    }),
}).openapi("ScoredMemory");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/retrieve",
  operationId: "retrieveMemories",
  tags: ["retrieval"],
  summary: "Rank memories by recency, importance and relevance (Generative Agents)",
  description: [
    "score = w_r·recency + w_i·importance + w_v·relevance, each min-max scaled to [0,1] over the candidate set",
    "(the agent's memories passing `kinds` and `filters`). recency = decay^(recencyUnits since last access, ≥ 0), floored at e^-600;",
    "importance = the 1–10 score; relevance = cosine similarity to the query embedding (relevance `vector`, the paper's).",
    `With relevance \`lexical\`, relevance = Okapi BM25 (k1 ${BM25.k1}, b ${BM25.b}) of the query's English lexemes (stemmed, stop words`,
    "dropped, any word matches) with idf over the candidate set; a memory sharing no word scores 0. With `hybrid`,",
    `relevance = α·cosine' + (1 − α)·bm25' (α = vectorShare, ${HYBRID_VECTOR_SHARE} unless a preset or the request sets it), each min-max scaled over the candidate set first (cosine' = 0 without a vector;`,
    "equal across candidates = 0.5). lexical and hybrid need `query` (400 otherwise) and always rank exactly (mode fast → 400).",
    "A component equal across all candidates scales to 0.5. Unscored importance counts as 0.5 (neutral);",
    "a memory with no vector of the query's model gets relevance 0 (lowest). Without query, relevance is 0 for all.",
    "With touch (default), returned memories get lastAccessedAt = max(lastAccessedAt, now) in the same transaction.",
    "With maxTokens or format, the answer also has `context`: the returned memories are the longest best-first",
    "prefix whose text block fits maxTokens (`context.tokens` ≤ maxTokens, exactly the count of `context.text`),",
    "and only those are touched.",
    'With sections (e.g. `[{kinds:["lesson"]},{kinds:["reflection"]},{kinds:["observation","document"]}]`), the block is',
    "in sections, each under its header: every candidate of the sections' kinds is scored as above (bounds over them all),",
    "each section keeps its own top k, and maxTokens is spent on section 0's best-first prefix, then section 1's from what",
    "is left, and so on (docs/adr/0019-sections-and-retention.md). `memories` lists them section by section, each with its `section`.",
    'With timeFilter, a time expression in the query ("in June 2023", "last week") keeps the memories created in that window (± 1 day), unless none is;',
    "`ranking.timeWindow` gives the window applied (exact mode only).",
    "Ranking fields (preset, weights, decay, recencyUnit, relevance, vectorShare, timeFilter, scaleFloors, versions, collapseDuplicates, subjects) left out come from the agent's defaults",
    `(PUT /v1/agents/{agentId}/settings), else from the preset (service default: ${DEFAULT_PRESET});`,
    "a request naming a preset ignores the agent's individual values. `ranking` in the answer gives the values in force.",
    "When lexical or hybrid comes from a default and the request has no query text, relevance is vector.",
    "mode auto (default) ranks hybrid and contextual relevance with a query vector over a stream of 3,300+ memories in phases (plan phased: the formula on seeds from the HNSW, GIN and recency indexes and their neighbours, approximate and measured, docs/adr/0032) and everything else exactly; mode exact always ranks exactly. Every retrieve is bounded by MEMSTREAM_RETRIEVE_TIMEOUT_MS (503 retrieve_timeout). mode fast (no filters, an HNSW index for the query's model) reads",
    "the HNSW index and the recency and importance indexes round by round until no unread memory can beat the k-th",
    "score (a threshold algorithm); it is exact only as far as HNSW returns the nearest vectors in order and finds",
    "the farthest one (the relevance minimum), so it stays opt-in (docs/adr/0020-threshold-retrieval.md). When it",
    "cannot settle within its depth limit the exact ranking answers. The response says which mode ran; a stream under",
    "MEMSTREAM_FAST_MIN_STREAM vectors (or MEMSTREAM_FAST_MIN_SHARE of the index) is ranked exactly, index or not.",
    "`ranking.plan` names the statement the planner chose (full: every candidate scored; sections; threshold: a whole",
    "stream ranked exactly, scoring only memories that can reach the top k; fused: the same for hybrid and contextual relevance;",
    "fast) and `ranking.planReason` why (docs/adr/0023).",
    "Each memory's `score` is Σ weight · `scores` (the scaled components) + `scores.lift` (versions, below) + `scores.subject` (subjects, below), so hits can be re-ranked under other weights; `scores.similarity` is the unscaled cosine (relevance vector), comparable across retrieves.",
    "With versions (on in the default), the question's time focus (`ranking.focus`) decides which version of a fact comes first among the best 10:",
    "a present-state question lifts a memory to a better, older one it is ≥ 0.55 cosine-similar to (the newer version first),",
    "and a superseded memory among them (`supersededBy`) hands its score to its replacement, ranked right above it (`ranking.superseded`).",
    "Every answer has `freshness`: how many of the agent's memories were not yet searchable (no vector yet) and the oldest one's age; waitSearchableMs waits, bounded, until what was written before the retrieve is (docs/adr/0035).",
    "With asOf, the stream as it stood at that time: memories created by then, supersession and last accesses as they were, nothing touched (docs/adr/0033).",
    "With collapseDuplicates (on in the default), copies of a memory (same kind, same description but for case, spacing and punctuation)",
    "take one place: the best-ranked stands for them and `duplicates` counts the copies it folds.",
    "With subjects (on in the default), an English question naming someone lifts, among the best k + 50, the memories whose description starts with that name (`scores.subject`).",
  ].join(" "),
  request: {
    params: AgentParam,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: RetrieveBody,
          example: { query: "Who is coming to the party?", k: 10, weights: { relevance: 2 } },
        },
      },
    },
  },
  responses: {
    200: json(
      z.object({
        retrievalId: z.string().openapi({
          description:
            "Names this retrieve for feedback (POST /v1/agents/{agentId}/feedback): the returned memories and their scaled components are kept in the agent's retrieval log (MEMSTREAM_RETRIEVAL_LOG_MAX retrieves, MEMSTREAM_RETRIEVAL_LOG_DAYS days)",
          example: "ret_3n8x0qk2m7v5c9d1f4h6",
        }),
        memories: z.array(Scored),
        mode: z.enum(["exact", "fast", "phased"]).openapi({
          description:
            "exact: the whole candidate set ranked by the formula; phased: the formula on seeds from the indexes (ranking.phases); fast: by the threshold search over indexes (ranking.plan says which statement)",
        }),
        ranking: RetrieveRanking,
        freshness: Freshness,
        cachedAt: z.string().optional().openapi({
          description:
            "Present when the answer came from the result cache (an identical retrieve within the agent's `retrieveCacheTtlMs`, nothing written since): when the retrieve that ranked it ran. Its retrievalId is that retrieve's; `touch` still marks its memories accessed now",
        }),
        context: Context.optional(),
      }),
      "Best first",
      {
        retrievalId: "ret_3n8x0qk2m7v5c9d1f4h6",
        memories: [SCORED_MEMORY_EXAMPLE],
        mode: "exact",
        freshness: { pending: 2, oldestPendingMs: 840, embeddedInline: 2 },
        ranking: {
          ...RANKING_EXAMPLE,
          timeWindow: null,
          focus: "present",
          lift: "newer",
          superseded: 0,
          plan: "full",
          planReason: "relevance contextual: every memory scored",
          phases: {
            first: "stream",
            seeds: null,
            scored: 1240,
            steps: ["neighbours", "versions", "duplicates"],
          },
          rules: { language: "en", focus: true, timeFilter: true, subjects: true },
        },
      },
    ),
    ...apiErrors.agentWrite,
    502: errorResponse("The embedding provider answered with no usable vector (`invalid_provider_answer`)"),
  },
});

export const registerRetrieve = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const body = c.req.valid("json");
    const timer = deps.metrics.retrieveDuration.startTimer();
    const { candidates, ...answer } =
      body.maxTokens !== undefined || body.format !== undefined || body.sections !== undefined
        ? await retrieveContext(deps, agentId, body, deps.text)
        : await retrieve(deps, agentId, body);
    // The relevance that ranked (a default may have supplied it), not the request's field.
    const plan = answer.ranking.plan;
    timer({ mode: answer.mode, plan, relevance: answer.ranking.relevance });
    deps.metrics.retrieveCandidates.observe({ mode: answer.mode, plan }, candidates);
    return c.json(answer, 200);
  });
