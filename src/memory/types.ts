/** The memory as the domain and the API see it. */

export const MEMORY_KINDS = [
  "observation",
  "reflection",
  "plan",
  "document",
  "outcome",
  "lesson",
  "summary",
] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** Kinds a caller may write directly; `document` sections are written by a document import only. */
export const WRITABLE_KINDS = ["observation", "reflection", "plan"] as const;

export const ENRICHMENT_STATES = ["pending", "ready", "failed"] as const;
export type EnrichmentState = (typeof ENRICHMENT_STATES)[number];

export type Memory = {
  id: string;
  agentId: string;
  kind: MemoryKind;
  description: string;
  createdAt: string; // ISO 8601
  lastAccessedAt: string; // ISO 8601
  importance: number | null; // 1..10, null until scored
  /** Who scored it: `caller`, the scorer's id, `budget:<offline id>` past the LLM budget, `lesson`. */
  importanceSource: string | null;
  embeddingModel: string | null; // model of the vector retrieval uses, null until embedded
  metadata: Record<string, unknown>;
  citations: string[]; // ids of memories a reflection was drawn from, as stored
  missingCitations?: string[]; // cited ids whose memory was deleted since (absent when none)
  supersededBy: string | null; // the memory that replaced this one (a newer version), null while current
  validUntil: string | null; // ISO 8601: when it stopped holding (the replacing memory's createdAt)
  expiresAt: string | null; // ISO 8601: when it stops existing (deleted from then on), null = never
  status: { importance: EnrichmentState; embedding: EnrichmentState };
  errors?: { importance?: string; embedding?: string };
  /** Present on a memory in the archive tier (docs/adr/0044): the summary that stands for it, since when, expansions so far. */
  archived?: { summaryId: string; archivedAt: string; expansions: number };
};

/** Tiers (docs/adr/0044): `recent` (every kind but summaries), `summary`, and `archive` (what compaction moved). */
export const TIERS = ["recent", "summary", "archive"] as const;
export type Tier = (typeof TIERS)[number];

/** A member of a summary that ranked, restored from the archive by `expand`. */
export type ExpandedMemory = Memory & {
  similarity: number | null;
  /** Hybrid relevance to the query, scaled over every member the retrieve expanded (0–1). */
  relevance: number;
};

export type ScoredMemory = Memory & {
  score: number;
  /**
   * Scaled components, the score the version lift (ranking/versions.ts) and the subject lift
   * (ranking/subjects.ts) added (0 otherwise), and the unscaled cosine (`similarity`, vector relevance only).
   */
  scores: {
    recency: number;
    importance: number;
    relevance: number;
    lift: number;
    subject: number;
    similarity: number | null;
  };
  /** Duplicates of it ranked among the best that it stands for (collapseDuplicates; ranking/duplicates.ts). */
  duplicates: number;
  /** Index of the section it was ranked in, when the request had sections. */
  section?: number;
  /** A summary's archived members, best first, when the retrieve asked to `expand`. */
  expanded?: ExpandedMemory[];
  /** In a flattened answer: the summary this archived member was expanded from. */
  expandedFrom?: string;
};
