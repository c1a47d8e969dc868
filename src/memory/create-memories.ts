import { and, eq, inArray } from "drizzle-orm";
import { memories, memoryEmbeddings, type NewMemoryRow } from "../db/schema";
import { Invalid } from "../lib/errors";
import { newId } from "../lib/ids";
import type { MemoryDeps } from "./deps";
import { resolveEmbeddingModel } from "./embedding-model";
import { toMemory } from "./serialize";
import type { Memory, MemoryKind } from "./types";

export type NewMemoryInput = {
  description: string;
  kind?: MemoryKind;
  /** ISO 8601; may be in the past (imported history, simulated time). Defaults to now. */
  createdAt?: string;
  /** Caller-supplied importance is stored as given and never re-scored. */
  importance?: number;
  /** Caller-supplied vector is stored as given and never re-computed. */
  embedding?: number[];
  /** Model of `embedding`; defaults to the configured embedder's model. */
  embeddingModel?: string;
  metadata?: Record<string, unknown>;
  /** Ids of memories (of the same agent) this one was drawn from. */
  citations?: string[];
  promptVersion?: string;
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
  const rows: NewMemoryRow[] = [];
  const vectors: (typeof memoryEmbeddings.$inferInsert)[] = [];
  inputs.forEach((input, i) => {
    const field = inputs.length > 1 ? `memories[${i}]` : "body";
    const createdAt = input.createdAt ? new Date(input.createdAt) : now;
    const id = newId("mem");
    let embeddingModel: string | null = null;
    if (input.embedding) {
      embeddingModel = resolveEmbeddingModel(
        deps,
        input.embedding,
        input.embeddingModel,
        `${field}.embedding`,
      );
      vectors.push({
        memoryId: id,
        agentId,
        model: embeddingModel,
        dimensions: input.embedding.length,
        embedding: input.embedding,
        revision: 1,
      });
    } else if (input.embeddingModel) {
      throw new Invalid(`${field}.embeddingModel is given without an embedding`, {
        field: `${field}.embeddingModel`,
      });
    }
    rows.push({
      id,
      agentId,
      kind: input.kind ?? "observation",
      description: input.description,
      createdAt,
      lastAccessedAt: createdAt,
      insertedAt: now,
      updatedAt: now,
      importance: input.importance ?? null,
      importanceStatus: input.importance === undefined ? "pending" : "ready",
      importanceSource: input.importance === undefined ? null : "caller",
      embeddingStatus: embeddingModel ? "ready" : "pending",
      embeddingModel,
      metadata: input.metadata ?? {},
      citations: [...new Set(input.citations ?? [])],
      promptVersion: input.promptVersion ?? null,
    });
  });

  const stored = await deps.db.transaction(async (tx) => {
    await assertCitationsExist(tx, agentId, rows);
    // Chunked so a 1000-memory batch stays well under Postgres' 65535 bind-parameter limit.
    const out = [];
    for (let i = 0; i < rows.length; i += 250) {
      out.push(
        ...(await tx
          .insert(memories)
          .values(rows.slice(i, i + 250))
          .returning()),
      );
    }
    for (let i = 0; i < vectors.length; i += 250) {
      await tx.insert(memoryEmbeddings).values(vectors.slice(i, i + 250));
    }
    return out;
  });

  const pending = stored.filter((r) => r.importanceStatus === "pending" || r.embeddingStatus === "pending");
  if (pending.length > 0) {
    await deps.enrichment.pending(pending.map((r) => ({ memoryId: r.id, agentId, revision: r.revision })));
  }
  // Caller-scored memories count towards the reflection threshold now; scored ones count once scored.
  if (stored.some((r) => r.importance !== null && r.kind !== "reflection")) {
    await deps.reflection.importanceAdded(agentId);
  }
  return stored.map(toMemory);
}

/** Citations must name memories of the same agent (or memories of this same batch). */
async function assertCitationsExist(
  tx: Pick<MemoryDeps["db"], "select">,
  agentId: string,
  rows: NewMemoryRow[],
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
