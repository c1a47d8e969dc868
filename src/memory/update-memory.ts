import { and, eq, sql } from "drizzle-orm";
import { memories, memoryEmbeddings } from "../db/schema";
import { NotFound } from "../lib/errors";
import { withCitationStatus } from "./citation-status";
import type { MemoryDeps } from "./deps";
import { resolveEmbeddingModel } from "./embedding-model";
import { embeddingGiven, importanceGiven, resetOnEdit } from "./enrichment/reset";
import { recordRevision, sameJson } from "./history/record-revision";
import { toMemory } from "./serialize";
import type { Memory, MemoryKind } from "./types";

export type MemoryPatch = {
  description?: string;
  kind?: MemoryKind;
  importance?: number;
  embedding?: number[];
  embeddingModel?: string;
  /** Replaces the metadata object as a whole. */
  metadata?: Record<string, unknown>;
  /** ISO 8601 when it stops existing; null = never again. */
  expiresAt?: string | null;
};

/**
 * Updates a memory. A changed description bumps the revision, so results of enrichment jobs
 * started for the old text are discarded; its importance and vectors become pending again
 * unless this same patch supplies them. A patch that changes the description, importance or
 * metadata keeps the values it replaces as a revision (history/), in the same transaction.
 */
export async function updateMemory(
  deps: MemoryDeps,
  agentId: string,
  id: string,
  patch: MemoryPatch,
): Promise<Memory> {
  const now = deps.clock.now();
  const model =
    patch.embedding && resolveEmbeddingModel(deps, patch.embedding, patch.embeddingModel, "embedding");
  const result = await deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(memories)
      .where(and(eq(memories.agentId, agentId), eq(memories.id, id)))
      .for("update");
    if (!current) throw new NotFound(`memory ${id} not found for agent ${agentId}`, { id });
    const textChanged = patch.description !== undefined && patch.description !== current.description;
    const revision = textChanged ? current.revision + 1 : current.revision;
    const importanceChanged = patch.importance !== undefined && patch.importance !== current.importance;
    const metadataChanged = patch.metadata !== undefined && !sameJson(patch.metadata, current.metadata);
    if (textChanged || importanceChanged || metadataChanged) {
      await recordRevision(tx, agentId, id, current, now);
    }
    const set: Partial<typeof memories.$inferInsert> = { updatedAt: now, revision };
    if (patch.kind) set.kind = patch.kind;
    if (patch.metadata) set.metadata = patch.metadata;
    if (patch.expiresAt !== undefined)
      set.expiresAt = patch.expiresAt === null ? null : new Date(patch.expiresAt);
    if (textChanged) {
      set.description = patch.description;
      Object.assign(set, resetOnEdit());
      // The old vectors describe the old text; keeping them would rank the memory by stale meaning.
      await tx
        .delete(memoryEmbeddings)
        .where(and(eq(memoryEmbeddings.agentId, agentId), eq(memoryEmbeddings.memoryId, id)));
    }
    if (patch.importance !== undefined) {
      Object.assign(set, importanceGiven(patch.importance));
    }
    if (patch.embedding && model) {
      await tx
        .insert(memoryEmbeddings)
        .values({
          memoryId: id,
          agentId,
          model,
          dimensions: patch.embedding.length,
          embedding: patch.embedding,
          revision,
        })
        .onConflictDoUpdate({
          target: [memoryEmbeddings.agentId, memoryEmbeddings.memoryId, memoryEmbeddings.model],
          set: {
            embedding: patch.embedding,
            dimensions: patch.embedding.length,
            revision,
            // The row's default (now(), taken at insert): Citus allows no non-immutable
            // function in a DO UPDATE clause, and this is the same time.
            createdAt: sql`excluded.created_at`,
          },
        });
      Object.assign(set, embeddingGiven(model));
    }
    const [row] = await tx
      .update(memories)
      .set(set)
      .where(and(eq(memories.agentId, agentId), eq(memories.id, id)))
      .returning();
    return row;
  });
  if (!result) throw new NotFound(`memory ${id} not found for agent ${agentId}`, { id });
  if (result.importanceStatus === "pending" || result.embeddingStatus === "pending") {
    await deps.announce([
      { kind: "memories.pending", items: [{ memoryId: id, agentId, revision: result.revision }] },
    ]);
  }
  const [memory] = await withCitationStatus(deps.db, agentId, [toMemory(result)]);
  return memory ?? toMemory(result);
}
