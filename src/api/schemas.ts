import { z } from "@hono/zod-openapi";
import { ErrorCode } from "../lib/errors";
import { FLOAT4_MAX, JsonObject, MAX_JSON_DEPTH, Text, Timestamp } from "../lib/storable";
import { AGENT_ID_PATTERN, LIMITS } from "../memory/limits";
import { REFLECTION_TRIGGERS, RUN_STATUSES } from "../memory/reflect/types";
import { ENRICHMENT_STATES, MEMORY_KINDS, TIERS, WRITABLE_KINDS } from "../memory/types";

/** Shared OpenAPI schemas; every limit here comes from `LIMITS`. */

export const AgentParam = z.object({
  agentId: z
    .string()
    .regex(AGENT_ID_PATTERN)
    .openapi({
      param: { name: "agentId", in: "path" },
      example: "github:acme/api",
      description: "URL-encode `/` as %2F",
    }),
});

export const MemoryParams = AgentParam.extend({
  id: Text({ min: 1, max: 64, name: "id" }).openapi({
    param: { name: "id", in: "path" },
    example: "mem_3n8x0q4w7f2k9d1c5b6a",
  }),
});

export const Kind = z.enum(MEMORY_KINDS);
/** Kinds a memory may be written as; `document` sections come from `POST /documents` only. */
export const WritableKind = z.enum(WRITABLE_KINDS, {
  error:
    "kind must be observation, reflection or plan (document sections are written by POST /v1/agents/{agentId}/documents)",
});
export const IsoTime = Timestamp().openapi({
  example: "2026-11-22T10:00:00Z",
  description: "ISO 8601 with an offset; years 0001-9999",
});
export const Importance = z.number().int().min(1).max(10);
/**
 * A vector: 1–16,000 finite numbers. Checked by one loop instead of `z.array(z.number())`,
 * which validated each element as its own schema and cost ~70 ms per 1,000 512-d vectors
 * (as much as parsing the JSON body); the OpenAPI document still says array of numbers.
 */
export const Vector = z
  .custom<number[]>()
  .superRefine((v, ctx) => {
    const problem = vectorProblem(v);
    // The path names the element (`embedding.3`), as a per-element schema would.
    if (problem) ctx.addIssue({ code: "custom", message: problem.message, path: problem.path });
  })
  .openapi({ type: "array", items: { type: "number" }, minItems: 1, maxItems: LIMITS.maxDimensions });

function vectorProblem(v: unknown): { message: string; path: number[] } | null {
  const whole = (message: string) => ({ message, path: [] });
  // Float32Array: what parseMemoriesJson (vector-json.ts) makes of a body's number arrays.
  if (!Array.isArray(v) && !(v instanceof Float32Array)) return whole("expected an array of numbers");
  if (v.length === 0) return whole("expected at least 1 dimension");
  if (v.length > LIMITS.maxDimensions) return whole(`at most ${LIMITS.maxDimensions} dimensions`);
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== "number" || !Number.isFinite(x)) return { message: "not a finite number", path: [i] };
    // Vectors are stored as float4: a larger magnitude would become infinite.
    if (Math.abs(x) > FLOAT4_MAX) return { message: `beyond ±${FLOAT4_MAX} (float4)`, path: [i] };
  }
  return null;
}
/**
 * A vector to store: numbers as `Vector`, or base64 of little-endian float32 values (what OpenAI's
 * `encoding_format: "base64"` answers). Why: JSON numbers cost ~20 bytes and a decimal conversion
 * each, most of a 1,000-memory batch's CPU (docs/adr/0003); base64 is 5.3 bytes per value and
 * decodes natively. Out: `number[]`, or a `Float32Array` for base64 (and for numbers read by
 * `parseMemoriesJson`).
 */
export const StoredVector = z
  .custom<number[] | Float32Array | string>()
  .superRefine((v, ctx) => {
    const problem = typeof v === "string" ? base64VectorProblem(v) : vectorProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem.message, path: problem.path });
  })
  // On the input schema: the document describes what a client sends, not the transform's output.
  .openapi({
    // `type` too: without it the generator tries (and fails) to describe the custom schema itself.
    type: ["array", "string"],
    // Redundant with the anyOf (it applies only when the value is an array), but linters
    // (Spectral's array-items) and some generators want an array type to say its items beside it.
    items: { type: "number" },
    anyOf: [
      { type: "array", items: { type: "number" }, minItems: 1, maxItems: LIMITS.maxDimensions },
      {
        type: "string",
        contentEncoding: "base64",
        description: `base64 of little-endian float32 values (OpenAI's \`encoding_format: "base64"\`), 1–${LIMITS.maxDimensions} of them`,
      },
    ],
  })
  .transform((v): number[] | Float32Array => (typeof v === "string" ? float32FromBase64(v) : v));

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The float32 values a base64 string holds (copied, so aligned; in host order). */
function float32FromBase64(s: string, bytes = Buffer.from(s, "base64")): Float32Array {
  const out = new Float32Array(bytes.length >> 2);
  const view = new Uint8Array(out.buffer);
  view.set(bytes.subarray(0, view.length));
  if (!LITTLE_ENDIAN) Buffer.from(out.buffer).swap32();
  return out;
}

function base64VectorProblem(s: string): { message: string; path: number[] } | null {
  const whole = (message: string) => ({ message, path: [] });
  const malformed = whole("expected an array of numbers or base64");
  if (s.length % 4 !== 0) return malformed;
  const bytes = (s.length / 4) * 3 - (s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0);
  if (bytes === 0) return whole("expected at least 1 dimension");
  if (bytes % 4 !== 0) return whole(`base64 of float32 values: ${bytes} bytes is not a multiple of 4`);
  if (bytes / 4 > LIMITS.maxDimensions) return whole(`at most ${LIMITS.maxDimensions} dimensions`);
  // Node's decoder skips characters outside the alphabet: fewer bytes than the length implies
  // means the string was not base64 (a regex test cost ~10× the decode, on 8 KB strings).
  const decoded = Buffer.from(s, "base64");
  if (decoded.length !== bytes) return malformed;
  const v = float32FromBase64(s, decoded);
  for (let i = 0; i < v.length; i++) {
    if (!Number.isFinite(v[i])) return { message: "not a finite number", path: [i] };
  }
  return null;
}
export const ModelId = Text({ min: 1, max: LIMITS.modelIdChars, name: "embeddingModel" });

export const Metadata = JsonObject({ maxBytes: LIMITS.metadataBytes, name: "metadata" }).openapi({
  example: { source: "github", repository: "acme/api" },
  description: `JSON object, at most ${LIMITS.metadataBytes} bytes serialized and ${MAX_JSON_DEPTH} levels deep; no NUL or lone surrogates in its strings`,
});

export const Description = Text({
  trim: true,
  min: 1,
  max: LIMITS.descriptionChars,
  name: "description",
});

/** A memory id as a request field (citations). */
export const MemoryId = Text({ min: 1, max: 64, name: "memory id" });

export const NewMemory = z
  .object({
    description: Description,
    kind: WritableKind.optional(),
    createdAt: IsoTime.optional(),
    importance: Importance.optional(),
    embedding: StoredVector.optional(),
    embeddingModel: ModelId.optional(),
    metadata: Metadata.optional(),
    citations: z.array(MemoryId).max(100).optional(),
    supersedes: z
      .array(MemoryId)
      .max(LIMITS.supersedes, `at most ${LIMITS.supersedes} memories superseded`)
      .optional()
      .openapi({
        description: `Ids of earlier memories of the same agent that this one replaces (a newer version of the same fact, at most ${LIMITS.supersedes}). Each gets \`supersededBy\` = the new id and \`validUntil\` = the new memory's createdAt; nothing is deleted. Present-state questions rank a superseded memory below its replacement; past-state questions still find it.`,
        example: ["mem_01JB7Z3Q4K8N2M5P6R7S8T9V0W"],
      }),
    expiresAt: IsoTime.optional().openapi({
      description:
        "When the memory stops existing: from then on no retrieve, list, get or context shows it (the read deletes it first, with what was derived from it), and retention removes it. Absent = never",
      example: "2026-12-31T00:00:00Z",
    }),
  })
  .strict()
  .openapi("NewMemory");

const State = z.enum(ENRICHMENT_STATES);

export const MemorySchema = z
  .object({
    id: z.string(),
    agentId: z.string(),
    kind: Kind,
    description: z.string(),
    createdAt: z.string(),
    lastAccessedAt: z.string(),
    importance: z.number().nullable(),
    importanceSource: z.string().nullable().openapi({
      description:
        "Who scored importance: `caller`, the scorer's id (an `llm:` model or the offline scorer), `budget:<offline scorer>` when the agent's daily LLM budget was spent, `outcome`, `lesson`; null until scored",
    }),
    embeddingModel: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    citations: z.array(z.string()),
    missingCitations: z
      .array(z.string())
      .optional()
      .openapi({ description: "Cited ids whose memory has been deleted since; absent when none" }),
    supersededBy: z.string().nullable().openapi({
      description:
        "The memory that replaced this one (a newer version of the same fact: the caller's `supersedes`, or the supersession job with an LLM configured); null while current, and again if the replacing memory is deleted",
    }),
    validUntil: z.string().nullable().openapi({
      description: "When this memory stopped holding (the replacing memory's createdAt); null while current",
    }),
    expiresAt: z.string().nullable().openapi({ description: "When it stops existing; null = never" }),
    status: z.object({ importance: State, embedding: State }),
    errors: z.object({ importance: z.string().optional(), embedding: z.string().optional() }).optional(),
    archived: z
      .object({ summaryId: z.string(), archivedAt: z.string(), expansions: z.number().int() })
      .optional()
      .openapi({
        description:
          "Present on a memory in the archive tier: compaction moved it behind the summary `summaryId` at `archivedAt`; `expansions` counts the retrieves that expanded it (promoted back to the ranked stream at the agent's compaction.promoteAfter). Absent on ranked memories",
      }),
  })
  .openapi("Memory");

export const TierSchema = z.enum(TIERS).openapi("Tier", {
  description:
    "recent: every ranked kind but summaries; summary: what compaction wrote for older memories; archive: the memories compaction moved behind their summaries (not ranked; listed, expanded, deleted and exported like the others)",
});

/** The error codes, as a named enum in the OpenAPI document. */
export const ErrorCodeSchema = z.enum(ErrorCode.options).openapi("ErrorCode", {
  description:
    "Stable machine code of an error; each maps to one HTTP status (invalid_request 400, unauthorized 401, invalid_signature 401, not_found 404, conflict 409, payload_too_large 413, unsupported_media_type 415, internal 500, not_configured 501, invalid_provider_answer 502, reflection_failed 502, unavailable 503)",
  example: "invalid_request",
});

export const ErrorSchema = z
  .object({
    error: z.object({
      code: ErrorCodeSchema,
      message: z.string().openapi({ example: "body.description: description must not be empty" }),
      requestId: z.string(),
      details: z
        .record(z.string(), z.unknown())
        .optional()
        .openapi({ description: "`field` names the offending field or header; `limit` the limit passed" }),
    }),
  })
  .openapi("Error");

/** An error response of the envelope for one status, for routes that can answer it. */
export const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorSchema } },
});

// What any /v1 operation can run into: bad input, a missing key, a dependency down, a bug.
const V1 = {
  400: errorResponse("Invalid input; `details.field` names the field (`invalid_request`)"),
  401: errorResponse("Missing or unknown API key, when keys are configured (`unauthorized`)"),
  500: errorResponse("Unexpected failure, logged with the request id; no internals returned (`internal`)"),
  503: errorResponse("The database or the model provider is unreachable; retry later (`unavailable`)"),
} as const;
const AGENT = {
  404: errorResponse("Not found, or the agent is outside the key's agent prefix (`not_found`)"),
} as const;
// Any request body counts against MEMSTREAM_MAX_BODY_BYTES, even where none is expected.
const BODY = {
  413: errorResponse("Request body over MEMSTREAM_MAX_BODY_BYTES; `details.limit` (`payload_too_large`)"),
} as const;
const JSON_BODY = {
  415: errorResponse("Content-Type is not application/json (`unsupported_media_type`)"),
} as const;

/**
 * The error responses each kind of /v1 operation documents; `test/api/documented-errors.test.ts`
 * provokes each one on every operation and fails on any status an operation answers undocumented.
 */
export const apiErrors = {
  /** A read outside any agent (e.g. the deliveries list). */
  read: V1,
  /** A read of one agent's data. */
  agentRead: { ...V1, ...AGENT },
  /** A write with no body of its own (DELETE, POST actions). */
  agentAction: { ...V1, ...AGENT, ...BODY },
  /** A write with a JSON body. */
  agentWrite: { ...V1, ...AGENT, ...BODY, ...JSON_BODY },
} as const;

/** A JSON response with its example (every success response has one; the /docs page shows it). */
export const json = <T extends z.ZodType>(schema: T, description: string, example: unknown) => ({
  description,
  content: { "application/json": { schema, example } },
});

export const ReflectionRunSchema = z
  .object({
    id: z.string().openapi({ example: "ref_3n8x0q4w7f2k9d1c5b6a" }),
    agentId: z.string(),
    trigger: z.enum(REFLECTION_TRIGGERS),
    status: z.enum(RUN_STATUSES),
    promptVersion: z.string().nullable(),
    questions: z.array(z.string()),
    insightIds: z.array(z.string()),
    usage: z.object({ promptTokens: z.number(), completionTokens: z.number(), llmCalls: z.number() }),
    error: z.string().nullable(),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi("ReflectionRun");

/** Reflections and lessons deleted with their evidence, per kind (docs/adr/0034). */
export const DerivedDeleted = z
  .object({
    reflection: z.number().int().optional(),
    lesson: z.number().int().optional(),
    summary: z.number().int().optional(),
    archived: z.number().int().optional(),
  })
  .openapi("DerivedDeleted", {
    description:
      "Reflections and lessons deleted with the memories they cite (and what cites those), summaries left with no member, and (`archived`) the archived members a deleted summary stood for; kinds with none left out. A summary that keeps members is worded again from them.",
  });
