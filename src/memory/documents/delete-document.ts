import { and, eq } from "drizzle-orm";
import { documents, memories } from "../../db/schema";
import { NotFound } from "../../lib/errors";
import type { MemoryDeps } from "../deps";
import { type DerivedCounts, deleteDerived } from "../derived/delete-derived";
import { sectionsWhere } from "./import-document";

/**
 * Deletes a document source and all its sections (with their vectors) in one transaction, and
 * what was derived from them (derived/delete-derived.ts), counted per kind.
 */
export async function deleteDocument(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  source: string,
): Promise<{ source: string; deleted: number; derived: DerivedCounts }> {
  return deps.db.transaction(async (tx) => {
    const gone = await tx
      .delete(documents)
      .where(and(eq(documents.agentId, agentId), eq(documents.source, source)))
      .returning({ source: documents.source });
    if (gone.length === 0) throw new NotFound(`no document ${source} for agent ${agentId}`, { source });
    const sections = await tx
      .delete(memories)
      .where(and(...sectionsWhere(agentId, source)))
      .returning({ id: memories.id });
    const derived = await deleteDerived(
      tx,
      agentId,
      sections.map((s) => s.id),
    );
    return { source, deleted: sections.length, derived };
  });
}
