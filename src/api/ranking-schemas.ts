import { z } from "@hono/zod-openapi";
import { MIN_POSITIVE_WEIGHT } from "../lib/storable";
import { FOCUSES } from "../memory/retrieve/focus";
import { STATEMENTS } from "../memory/retrieve/plan";
import { PRESET_NAMES, PRESETS } from "../memory/retrieve/presets";
import {
  IMPORTANCE_FLOOR_POINTS,
  RECENCY_FLOOR_UNITS,
  RECENCY_UNITS,
  type RecencyUnit,
} from "../memory/retrieve/ranking/components";
import { DUPLICATE_POOL } from "../memory/retrieve/ranking/duplicates";
import {
  BM25,
  CONTEXT_FIELD_DECAY,
  CONTEXT_FIELD_REACH,
  CONTEXT_FIELD_WEIGHT,
  CONTEXT_SHARE,
  FORM_MIN,
  HYBRID_VECTOR_SHARE,
  RELEVANCE_KINDS,
} from "../memory/retrieve/ranking/relevance/kinds";
import { SUBJECT_LIFT } from "../memory/retrieve/ranking/subjects";
import { VERSION_SIMILARITY, VERSION_TOP } from "../memory/retrieve/ranking/versions";
import { TIME_WINDOW_SLACK_S } from "../memory/retrieve/time-window";

/** The ranking fields shared by retrieve requests and an agent's retrieve defaults (settings). */

// A positive weight below 1e-6 underflows float8 in the weighted sum (storable.ts): 0 or at least that.
const Weight = z
  .number()
  .min(0)
  .max(100)
  .refine((w) => w === 0 || w >= MIN_POSITIVE_WEIGHT, `a weight is 0 or at least ${MIN_POSITIVE_WEIGHT}`);
const UNITS = Object.keys(RECENCY_UNITS) as [RecencyUnit, ...RecencyUnit[]];
const RELEVANCE = RELEVANCE_KINDS;

const presetList = PRESET_NAMES.map((name) => {
  const p = PRESETS[name];
  const w = p.weights;
  return `${name} = weights ${w.recency}/${w.importance}/${w.relevance}, ${p.decay} per ${p.recencyUnit}, ${p.relevance}${p.timeFilter ? ", time filter" : ""}${p.scaleFloors ? ", scale floors" : ""}${p.versions ? ", versions" : ""}${p.collapseDuplicates ? ", duplicates collapsed" : ""}${p.subjects ? ", subjects" : ""}`;
}).join("; ");

export const RankingFields = {
  preset: z
    .enum(PRESET_NAMES)
    .optional()
    .openapi({
      description: `A named ranking (recency/importance/relevance weights, decay, relevance, time filter): ${presetList}`,
    }),
  weights: z
    .object({ recency: Weight.optional(), importance: Weight.optional(), relevance: Weight.optional() })
    .strict()
    .optional(),
  decay: z
    .number()
    .gt(0)
    .max(1)
    .optional()
    .openapi({ description: "recency = decay^(time since last access in recencyUnit)" }),
  recencyUnit: z
    .enum(UNITS)
    .optional()
    .openapi({ description: "The time unit decay applies per (paper: hour)" }),
  relevance: z
    .enum(RELEVANCE)
    .optional()
    .openapi({
      description: `vector (the paper's): cosine similarity to the query embedding; lexical: BM25 (k1 ${BM25.k1}, b ${BM25.b}) of the query's words; hybrid: ${HYBRID_VECTOR_SHARE}·vector' + ${1 - HYBRID_VECTOR_SHARE}·lexical'; contextual: hybrid + ${CONTEXT_SHARE}·the better hybrid of the memory's two neighbours by createdAt (each only within an hour: the same conversation); windowed: contextual whose lexical part is BM25F with the words of up to ${CONTEXT_FIELD_REACH} neighbours either side of the same conversation, the nearest weighted ${CONTEXT_FIELD_WEIGHT}, each further one × ${CONTEXT_FIELD_DECAY}, and whose cosine leaves out the question form (the agent's direction from its statements to its questions, with ${FORM_MIN} of each; the strongest relevance alone). All but vector need query text and rank exactly`,
    }),
  vectorShare: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .openapi({
      description: `α of hybrid, contextual and windowed relevance: α·vector' + (1 − α)·lexical' (default ${HYBRID_VECTOR_SHARE}; presets may set their own)`,
    }),
  timeFilter: z
    .boolean()
    .optional()
    .openapi({
      description: `A time expression in the query (English: "on 9 May 2023", "in June", "last week", "yesterday", "in 2022"; relative to now) limits the candidates to memories created in that window, widened by ${TIME_WINDOW_SLACK_S / 86_400} day on each side, unless none is in it. Exact mode only; the answer's ranking.timeWindow gives the window applied`,
    }),
  scaleFloors: z
    .boolean()
    .optional()
    .openapi({
      description: `Scale recency over at least the decay of ${RECENCY_FLOOR_UNITS} recencyUnits and importance over at least ${IMPORTANCE_FLOOR_POINTS} points, so a small spread stays small (off: plain min-max, the paper's)`,
    }),
  versions: z
    .boolean()
    .optional()
    .openapi({
      description: `For a present-state question (ranking.focus present: "Where does Alice live?"): among the best ${VERSION_TOP}, a memory at least ${VERSION_SIMILARITY} cosine-similar to a better, older one takes its score (the newer version of a fact comes first); equal scores newest first. Needs a query vector`,
    }),
  collapseDuplicates: z
    .boolean()
    .optional()
    .openapi({
      description: `Duplicates take one place in the top k: memories of the same kind whose descriptions are equal but for case, spacing, punctuation and symbols are one hit, the best-ranked standing for the others (its \`duplicates\` counts those folded among the best k + ${DUPLICATE_POOL} ranked). Off: every copy ranked on its own (the paper's)`,
    }),
  subjects: z
    .boolean()
    .optional()
    .openapi({
      description: `A question naming someone (a capitalised word other than its first, English questions only: "What does Melanie do to destress?") lifts, among the best k + ${DUPLICATE_POOL} ranked, each memory whose description starts with that name by ${SUBJECT_LIFT} × the relevance weight (scores.subject). Off: the formula alone`,
    }),
};

const Source = z.enum(["request", "agent", "preset"]);

/** The values that ranked a retrieve and where each came from. */
export const RankingInForce = z
  .object({
    preset: z.enum(PRESET_NAMES),
    weights: z.object({ recency: z.number(), importance: z.number(), relevance: z.number() }),
    decay: z.number(),
    recencyUnit: z.enum(UNITS),
    relevance: z.enum(RELEVANCE),
    vectorShare: z.number(),
    timeFilter: z.boolean(),
    scaleFloors: z.boolean(),
    versions: z.boolean(),
    collapseDuplicates: z.boolean(),
    subjects: z.boolean(),
    source: z.object({
      preset: z.enum(["request", "agent", "default"]),
      weights: z.enum(["request", "learned", "agent", "preset"]).openapi({
        description:
          "learned: the weights fitted to the agent's own feedback (POST /feedback; on when learnWeights is, see GET /settings)",
      }),
      decay: Source,
      recencyUnit: Source,
      relevance: Source,
      vectorShare: Source,
      timeFilter: Source,
      scaleFloors: Source,
      versions: Source,
      collapseDuplicates: Source,
      subjects: Source,
    }),
  })
  .openapi("Ranking", {
    description:
      "The ranking values in force: explicit request fields, else (weights) the weights learned from the agent's feedback when on and adopted, else the agent's defaults (settings), else the preset's",
  });

/** The rank profile as it ran (docs/adr/0032). */
export const RankPhases = z
  .object({
    first: z.enum(["stream", "indexes"]).openapi({
      description:
        "Where the formula's candidates came from: the whole stream (or the candidate set filters leave), or seeds from the indexes (plan phased; plan fast reads its candidates from indexes in rounds)",
    }),
    seeds: z
      .object({
        vector: z
          .number()
          .int()
          .openapi({ description: "Distinct distances nearest the query vector, at most" }),
        lexical: z
          .number()
          .int()
          .openapi({ description: "Best by BM25 over the postings of the query's words, at most" }),
        recent: z.number().int().openapi({ description: "Newest by last access" }),
        far: z
          .number()
          .int()
          .openapi({ description: "Farthest from the query vector (the low end of the cosine's range)" }),
        vectorFrom: z.enum(["hnsw", "scan"]).openapi({
          description:
            "The model's HNSW index, or one pass over the agent's vectors (streams below MEMSTREAM_FAST_MIN_STREAM)",
        }),
      })
      .nullable()
      .openapi({
        description:
          "The first phase's lists (plan phased); each seed's previous and next memory join it for contextual relevance. Null for other plans",
      }),
    scored: z.number().int().openapi({
      description: "Memories the formula scored (seeds and their neighbours, or the candidate set)",
    }),
    steps: z.array(z.enum(["neighbours", "versions", "subjects", "duplicates"])).openapi({
      description:
        "Steps on the formula's best, in order: neighbours = contextual relevance mixed each memory's with its neighbours'; versions = the version lift; subjects = memories starting with a name the question gives lifted; duplicates = copies took one place",
    }),
  })
  .openapi("RankPhases", {
    description:
      "How the ranking ran in phases: the first phase's source, how many memories the formula scored, and the steps after it",
  });

/** What ranked a retrieve: the values in force, the time window applied and the plan that ran. */
export const RetrieveRanking = RankingInForce.extend({
  timeWindow: z.object({ start: z.string(), end: z.string() }).nullable().openapi({
    description:
      "The createdAt window [start, end) a time expression in the query limited the candidates to (when any memory is in it); null when none applied",
  }),
  focus: z.enum(FOCUSES).openapi({
    description:
      'The question\'s time focus, read from its words: present ("Where does Alice live?", "currently"), past ("before", "used to", "When did…", a named time) or none; with versions on, a present-state question lifts the newer version of a fact',
  }),
  lift: z.enum(["newer"]).nullable().openapi({
    description:
      "Which versions were lifted among the best (versions on, a query vector, full or phased statement); null = none",
  }),
  superseded: z.number().int().openapi({
    description:
      "How many of the memories returned were superseded (`supersededBy`) and rank right below their replacement, which took their score: a present-state question (lift newer) only; past-state questions rank superseded memories by the formula alone",
  }),
  plan: z.enum(STATEMENTS).openapi({
    description:
      "The statement that ranked (docs/adr/0023): full = every candidate scored; sections = the same per section; threshold = a whole stream ranked exactly, scoring only memories that can reach the top k; fused = the same for hybrid and contextual relevance (every memory's fused relevance, words through the GIN index); fast = the threshold search over indexes (mode fast); phased = the formula on seeds from the indexes (mode auto, docs/adr/0032)",
  }),
  planReason: z.string().openapi({
    description:
      'Why the planner chose it, e.g. "vector relevance over a whole stream of 3,300+ memories: only memories that can reach the top k scored"',
    example: "relevance contextual: every memory scored",
  }),
  phases: RankPhases,
  rules: z
    .object({
      language: z.enum(["en", "other"]).openapi({
        description:
          "The query's language as the rules read it: English, or another (letters mostly outside the Latin script, or another language's function words outnumbering English ones)",
      }),
      focus: z.boolean().openapi({
        description: "Whether the time focus (and so the version lift) was read from the query's words",
      }),
      timeFilter: z.boolean().openapi({
        description:
          "Whether the time filter looked for a time expression in the query (on, and the query English)",
      }),
      subjects: z.boolean().openapi({
        description:
          "Whether the names the query gives were read for the subject lift (subjects on, and the query English)",
      }),
    })
    .openapi({
      description:
        "The word rules that ran: the time focus and the time filter read English only; for another language the formula alone ranks (focus none, no time window)",
    }),
}).openapi("RetrieveRanking", {
  description:
    "The ranking values in force (request, else the agent's defaults, else the preset), the time window applied, and which statement ranked and why",
});
