import { and, eq } from "drizzle-orm";
import { documents, memories } from "../../db/schema";
import { NotFound } from "../../lib/errors";
import type { MemoryDeps } from "../deps";
import { releaseSuperseded } from "../supersede";
import { sectionsWhere } from "./import-document";

/** Deletes a document source and all its sections (with their vectors) in one transaction. */
export async function deleteDocument(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  source: string,
): Promise<{ source: string; deleted: number }> {
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
    await releaseSuperseded(
      tx,
      agentId,
      sections.map((s) => s.id),
    );
    return { source, deleted: sections.length };
  });
}
