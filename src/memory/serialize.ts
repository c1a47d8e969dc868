import type { MemoryRow } from "../db/schema";
import type { EnrichmentState, Memory, MemoryKind } from "./types";

/** The columns `toMemory` reads; raw SQL may hand timestamps over as ISO strings. */
export type MemoryRecord = Pick<
  MemoryRow,
  | "id"
  | "agentId"
  | "kind"
  | "description"
  | "importance"
  | "importanceSource"
  | "importanceStatus"
  | "importanceError"
  | "embeddingStatus"
  | "embeddingError"
  | "embeddingModel"
  | "metadata"
  | "citations"
  | "supersededBy"
> & {
  createdAt: Date | string;
  lastAccessedAt: Date | string;
  validUntil: Date | string | null;
  expiresAt?: Date | string | null;
};

const iso = (v: Date | string) => (typeof v === "string" ? v : v.toISOString());

/** Row → API shape. */
export function toMemory(r: MemoryRecord): Memory {
  const memory: Memory = {
    id: r.id,
    agentId: r.agentId,
    kind: r.kind as MemoryKind,
    description: r.description,
    createdAt: iso(r.createdAt),
    lastAccessedAt: iso(r.lastAccessedAt),
    importance: r.importance,
    importanceSource: r.importanceSource ?? null,
    embeddingModel: r.embeddingModel,
    metadata: r.metadata ?? {},
    citations: r.citations ?? [],
    supersededBy: r.supersededBy ?? null,
    validUntil: r.validUntil ? iso(r.validUntil) : null,
    expiresAt: r.expiresAt ? iso(r.expiresAt) : null,
    status: {
      importance: r.importanceStatus as EnrichmentState,
      embedding: r.embeddingStatus as EnrichmentState,
    },
  };
  if (r.importanceError || r.embeddingError) {
    memory.errors = {};
    if (r.importanceError) memory.errors.importance = r.importanceError;
    if (r.embeddingError) memory.errors.embedding = r.embeddingError;
  }
  return memory;
}
