import { and, eq, inArray } from "drizzle-orm";
import { memories } from "../db/schema";
import { Invalid } from "../lib/errors";
import { newId } from "../lib/ids";
import type { CopyVector } from "./copy-vectors";
import type { MemoryDeps } from "./deps";
import { resolveEmbeddingModel } from "./embedding-model";
import { recorded } from "./events";
import { type InsertRow, insertMemoryRows } from "./insert-rows";
import { type Supersession, supersede } from "./supersede";
import { SUPERSEDABLE_KINDS } from "./supersession/detect";
import type { Memory, MemoryKind } from "./types";

export type NewMemoryInput = {
  description: string;
  kind?: MemoryKind;
  /** ISO 8601; may be in the past (imported history, simulated time). Defaults to now. */
  createdAt?: string;
  /** Caller-supplied importance is stored as given and never re-scored. */
  importance?: number;
  /** Caller-supplied vector is stored as given (as float4) and never re-computed. */
  embedding?: number[] | Float32Array;
  /** Model of `embedding`; defaults to the configured embedder's model. */
  embeddingModel?: string;
  metadata?: Record<string, unknown>;
  /** Ids of memories (of the same agent) this one was drawn from. */
  citations?: string[];
  promptVersion?: string;
  /** ISO 8601: when the memory stops existing (docs/adr/0038); absent = never. */
  expiresAt?: string;
  /** Ids of earlier memories (of the same agent) this one replaces (supersede.ts). */
  supersedes?: string[];
};

/**
 * Stores memories in one transaction (all or nothing) and answers at once: importance and
 * embedding the caller did not supply are left pending for the enrichment workers.
 */
export async function createMemories(
  deps: MemoryDeps,
  agentId: string,
  inputs: NewMemoryInput[],
): Promise<Memory[]> {
  const now = deps.clock.now();
  const rows: InsertRow[] = [];
  const vectors: CopyVector[] = [];
  const replaced: Supersession[] = [];
  inputs.forEach((input, i) => {
    const field = inputs.length > 1 ? `memories[${i}]` : "body";
    const id = newId("mem");
    const kind = input.kind ?? "observation";
    if (input.supersedes?.length) {
      const at = input.createdAt ? new Date(input.createdAt) : now;
      replaced.push({ old: [...new Set(input.supersedes)], by: id, at, field: `${field}.supersedes` });
    }
    let embeddingModel: string | null = null;
    if (input.embedding) {
      embeddingModel = resolveEmbeddingModel(
        deps,
        input.embedding,
        input.embeddingModel,
        `${field}.embedding`,
      );
      vectors.push({ memoryId: id, model: embeddingModel, embedding: input.embedding });
    } else if (input.embeddingModel) {
      throw new Invalid(`${field}.embeddingModel is given without an embedding`, {
        field: `${field}.embeddingModel`,
      });
    }
    rows.push({
      id,
      kind,
      description: input.description,
      createdAt: input.createdAt ? new Date(input.createdAt) : now,
      importance: input.importance ?? null,
      importanceSource: input.importance === undefined ? null : "caller",
      embeddingModel,
      metadata: input.metadata ?? {},
      citations: [...new Set(input.citations ?? [])],
      promptVersion: input.promptVersion ?? null,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      // With its vector it can be compared with earlier memories at once (the others once embedded).
      supersessionDueAt:
        deps.supersession &&
        embeddingModel !== null &&
        (SUPERSEDABLE_KINDS as readonly string[]).includes(kind)
          ? now
          : null,
    });
  });

  await deps.db.transaction(async (tx) => {
    await assertCitationsExist(tx, agentId, rows);
    await insertMemoryRows(tx, agentId, now, rows, vectors);
    await supersede(tx, agentId, replaced);
  });

  const work = (rs: InsertRow[]) => rs.map((r) => ({ memoryId: r.id, agentId, revision: 1 }));
  const pending = rows.filter((r) => r.importance === null || r.embeddingModel === null);
  const embedded = rows.filter((r) => r.supersessionDueAt);
  await deps.announce([
    ...(pending.length > 0 ? [{ kind: "memories.pending" as const, items: work(pending) }] : []),
    ...(embedded.length > 0 ? [{ kind: "memories.embedded" as const, items: work(embedded) }] : []),
    // Caller-scored memories count towards the reflection threshold now; scored ones count once scored.
    ...(rows.some((r) => r.importance !== null && r.kind !== "reflection")
      ? [{ kind: "importance.added" as const, agentId }]
      : []),
    ...recorded([{ agentId }]),
  ]);
  return rows.map((r) => stored(agentId, r));
}

/**
 * The memory as the database now holds it (statuses follow from what was supplied): what
 * `toMemory` would read back, built in one object since a batch answers up to 1,000 of them.
 */
function stored(agentId: string, r: InsertRow): Memory {
  const at = r.createdAt.toISOString();
  return {
    id: r.id,
    agentId,
    kind: r.kind as MemoryKind,
    description: r.description,
    createdAt: at,
    lastAccessedAt: at,
    importance: r.importance,
    importanceSource: r.importanceSource,
    embeddingModel: r.embeddingModel,
    metadata: r.metadata,
    citations: r.citations,
    supersededBy: null,
    validUntil: null,
    expiresAt: r.expiresAt ? r.expiresAt.toISOString() : null,
    status: {
      importance: r.importance === null ? "pending" : "ready",
      embedding: r.embeddingModel === null ? "pending" : "ready",
    },
  };
}

/** Citations must name memories of the same agent (or memories of this same batch). */
async function assertCitationsExist(
  tx: Pick<MemoryDeps["db"], "select">,
  agentId: string,
  rows: InsertRow[],
) {
  const inBatch = new Set(rows.map((r) => r.id));
  const cited = [...new Set(rows.flatMap((r) => r.citations ?? []))].filter((c) => !inBatch.has(c));
  if (cited.length === 0) return;
  const found = await tx
    .select({ id: memories.id })
    .from(memories)
    .where(and(eq(memories.agentId, agentId), inArray(memories.id, cited)));
  const known = new Set(found.map((f) => f.id));
  const missing = cited.filter((c) => !known.has(c));
  if (missing.length > 0) {
    throw new Invalid(`citations name memories this agent does not have: ${missing.slice(0, 5).join(", ")}`, {
      field: "citations",
      missing,
    });
  }
}
