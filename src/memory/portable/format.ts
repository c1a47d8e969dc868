import { z } from "zod";
import { FLOAT4_MAX, JsonObject, Text, Timestamp } from "../../lib/storable";
import { LESSON_POLARITIES } from "../lessons/types";
import { LIMITS } from "../limits";
import { MEMORY_KINDS } from "../types";

/**
 * The portable stream (docs/adr/0038): JSON Lines, a header first, then one record per line.
 * Ids are kept as they are, so every reference in the file (citations, supersededBy, a lesson
 * revision's outcomeIds) means the same memory in the target. Times carry microseconds, as stored.
 */
export const FORMAT = "memstream.stream";
export const FORMAT_VERSION = 1;

/** Bounds of one import (LIMITS-style: a 400 names the one passed). */
export const PORTABLE_LIMITS = {
  /** Bytes of one line: a memory with several 16,000-d vectors and its lesson revisions fits. */
  lineBytes: 8 * 1024 * 1024,
  /** Bytes of one import body over HTTP (the API's body limit does not apply: the import streams). */
  importBytes: 32 * 1024 ** 3,
  /** Lines of one import (one transaction: docs/adr/0038). */
  lines: 20_000_000,
  /** Vectors (models) per memory. */
  modelsPerMemory: 16,
  /** Revisions carried by one lesson. */
  lessonRevisions: 10_000,
  /** Earlier versions (`history`) carried by one memory. */
  history: 10_000,
  /** References not yet resolved while reading (forward references; export order keeps them few). */
  pendingReferences: 100_000,
} as const;

const Id = Text({ min: 1, max: 64, name: "id" }).refine(
  (s) => !/[\t\n\r]/.test(s),
  "id must not hold a tab or newline",
);
const Model = Text({ min: 1, max: LIMITS.modelIdChars, name: "model" }).refine(
  (s) => !/[\t\n\r]/.test(s),
  "model must not hold a tab or newline",
);
const Time = Timestamp();
const Settings = z
  .object({
    reflectionThreshold: z.number().int().min(0).max(LIMITS.maxReflectionThreshold).nullable(),
    retrieval: JsonObject({ maxBytes: 65_536, name: "retrieval" }).nullable(),
    lessons: JsonObject({ maxBytes: 65_536, name: "lessons" }).nullable(),
    retention: JsonObject({ maxBytes: 65_536, name: "retention" }).nullable(),
    learnWeights: z.boolean().nullable(),
  })
  .strict();
export type PortableSettings = z.infer<typeof Settings>;

export const Header = z
  .object({
    type: z.literal("header"),
    format: z.literal(FORMAT),
    version: z.literal(FORMAT_VERSION),
    agentId: z.string(),
    exportedAt: Time,
    embeddingModels: z.array(
      z.object({ model: Model, dimensions: z.number().int(), vectors: z.number().int() }),
    ),
    memories: z.number().int().min(0),
    settings: Settings.nullable(),
  })
  .strict();
export type Header = z.infer<typeof Header>;

/** A vector as numbers, checked by one loop (a schema per element costs ~70 ms per 1,000 512-d vectors). */
const Vector = z.custom<number[]>().superRefine((v, ctx) => {
  if (!Array.isArray(v) || v.length === 0 || v.length > LIMITS.maxDimensions) {
    ctx.addIssue({ code: "custom", message: `expected 1-${LIMITS.maxDimensions} numbers` });
    return;
  }
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== "number" || !Number.isFinite(x) || Math.abs(x) > FLOAT4_MAX) {
      ctx.addIssue({ code: "custom", message: "not a finite float4", path: [i] });
      return;
    }
  }
});

const Outcome = z
  .object({
    task: Text({ min: 1, max: LIMITS.outcomeTaskChars, name: "task" }),
    taskType: Text({ max: LIMITS.taskTypeChars, name: "taskType" }).nullable(),
    success: z.boolean(),
    strategy: Text({ max: LIMITS.outcomeFieldChars, name: "strategy" }).nullable(),
    error: Text({ max: LIMITS.outcomeFieldChars, name: "error" }).nullable(),
    durationMs: z.number().int().min(0).max(2_147_483_647).nullable(),
    consolidatedAt: Time.nullable(),
    insertedAt: Time,
  })
  .strict();

const LessonRevision = z
  .object({
    revision: z.number().int().min(1).max(2_147_483_647),
    taskType: Text({ max: LIMITS.taskTypeChars, name: "taskType" }).nullable(),
    polarity: z.enum(LESSON_POLARITIES),
    description: Text({ min: 1, max: LIMITS.descriptionChars, name: "description" }),
    stats: JsonObject({ maxBytes: 65_536, name: "stats" }),
    confidence: z.number().min(0).max(1),
    outcomeIds: z.array(Id).max(100_000),
    wording: Text({ min: 1, max: 200, name: "wording" }),
    createdAt: Time,
  })
  .strict();

/** One version a PATCH replaced (docs/adr/0040). */
const HistoryRevision = z
  .object({
    revision: z.number().int().min(1).max(2_147_483_647),
    description: Text({ min: 1, max: LIMITS.descriptionChars, name: "description" }),
    importance: z.number().int().min(1).max(10).nullable(),
    metadata: JsonObject({ maxBytes: LIMITS.metadataBytes, name: "metadata" }),
    replacedAt: Time,
  })
  .strict();

export const MemoryRecord = z
  .object({
    type: z.literal("memory"),
    id: Id,
    kind: z.enum(MEMORY_KINDS),
    description: Text({ min: 1, max: LIMITS.descriptionChars, name: "description" }),
    createdAt: Time,
    lastAccessedAt: Time,
    insertedAt: Time,
    importance: z.number().int().min(1).max(10).nullable(),
    importanceSource: Text({ max: 200, name: "importanceSource" }).nullable(),
    embeddingModel: Model.nullable(),
    vectors: z.record(Model, Vector).refine((v) => Object.keys(v).length <= PORTABLE_LIMITS.modelsPerMemory, {
      message: `at most ${PORTABLE_LIMITS.modelsPerMemory} models per memory`,
    }),
    metadata: JsonObject({ maxBytes: LIMITS.metadataBytes, name: "metadata" }),
    citations: z.array(Id).max(100_000),
    /** Cited ids that named no memory when exported (a citation may outlive its memory: docs/adr/0005). */
    missingCitations: z.array(Id).max(100_000).optional(),
    supersededBy: Id.nullable(),
    validUntil: Time.nullable(),
    promptVersion: Text({ max: 200, name: "promptVersion" }).nullable(),
    /** When it stops existing; absent (files of before expiry) = null. */
    expiresAt: Time.nullable().optional(),
    outcome: Outcome.optional(),
    lessonRevisions: z.array(LessonRevision).max(PORTABLE_LIMITS.lessonRevisions).optional(),
    /** The versions PATCHes replaced, oldest first; absent when there are none (and in older files). */
    history: z.array(HistoryRevision).max(PORTABLE_LIMITS.history).optional(),
    /** In the archive tier (docs/adr/0044): behind summary `summaryId` since `archivedAt`; absent = ranked. */
    archived: z
      .object({ summaryId: Id, archivedAt: Time, expansions: z.number().int().min(0).max(2_147_483_647) })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((m, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if ((m.supersededBy === null) !== (m.validUntil === null))
      issue("validUntil", "supersededBy and validUntil are both set or both null");
    if (m.supersededBy === m.id) issue("supersededBy", "a memory cannot supersede itself");
    if (m.embeddingModel !== null && !(m.embeddingModel in m.vectors))
      issue("embeddingModel", "names a model with no vector in `vectors`");
    if ((m.outcome !== undefined) !== (m.kind === "outcome"))
      issue("outcome", "an outcome memory carries `outcome`, and only it");
    if (m.missingCitations?.some((c) => !m.citations.includes(c)))
      issue("missingCitations", "lists an id that is not among the citations");
    if (m.lessonRevisions !== undefined && m.kind !== "lesson")
      issue("lessonRevisions", "only a lesson carries lessonRevisions");
    if (m.archived !== undefined && m.embeddingModel === null)
      issue("archived", "an archived memory carries the vector it was ranked by (embeddingModel)");
  });
export type MemoryRecord = z.infer<typeof MemoryRecord>;

export const DocumentRecord = z
  .object({
    type: z.literal("document"),
    source: Text({ min: 1, max: LIMITS.sourceChars, name: "source" }),
    title: Text({ max: 2_000, name: "title" }).nullable(),
    format: z.enum(["markdown", "html", "text"]),
    contentHash: Text({ min: 1, max: 200, name: "contentHash" }),
    sections: z.number().int().min(0),
    tokens: z.number().int().min(0),
    importedAt: Time,
    updatedAt: Time,
  })
  .strict();
export type DocumentRecord = z.infer<typeof DocumentRecord>;

export const ReflectionRunRecord = z
  .object({
    type: z.literal("reflectionRun"),
    id: Id,
    trigger: Text({ min: 1, max: 50, name: "trigger" }),
    status: z.enum(["succeeded", "failed"]),
    promptVersion: Text({ max: 200, name: "promptVersion" }).nullable(),
    questions: z.array(Text({ max: LIMITS.descriptionChars, name: "question" })).max(1_000),
    insightIds: z.array(Id).max(10_000),
    promptTokens: z.number().int().min(0),
    completionTokens: z.number().int().min(0),
    llmCalls: z.number().int().min(0),
    error: Text({ max: 10_000, name: "error" }).nullable(),
    startedAt: Time,
    finishedAt: Time.nullable(),
  })
  .strict();
export type ReflectionRunRecord = z.infer<typeof ReflectionRunRecord>;

/** The last line: what was written, so a truncated file is told from a whole one. */
export const EndRecord = z
  .object({
    type: z.literal("end"),
    memories: z.number().int().min(0),
    documents: z.number().int().min(0),
    reflectionRuns: z.number().int().min(0),
  })
  .strict();
export type EndRecord = z.infer<typeof EndRecord>;

/** Any line after the header. */
export const Record = z.discriminatedUnion("type", [
  MemoryRecord,
  DocumentRecord,
  ReflectionRunRecord,
  EndRecord,
]);
export type PortableRecord = z.infer<typeof Record>;
