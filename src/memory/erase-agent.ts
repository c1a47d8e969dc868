import { eq } from "drizzle-orm";
import { agentSettings, documents, memories, reflectionRuns, retrievalLog } from "../db/schema";
import type { MemoryDeps } from "./deps";

/** Erases an agent's whole stream (memories, vectors, reflections, runs, settings, documents, retrieval log) in one transaction. */
export async function eraseAgent(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
): Promise<{ deleted: number }> {
  return deps.db.transaction(async (tx) => {
    const gone = await tx
      .delete(memories)
      .where(eq(memories.agentId, agentId))
      .returning({ id: memories.id });
    await tx.delete(reflectionRuns).where(eq(reflectionRuns.agentId, agentId));
    await tx.delete(agentSettings).where(eq(agentSettings.agentId, agentId));
    await tx.delete(documents).where(eq(documents.agentId, agentId));
    await tx.delete(retrievalLog).where(eq(retrievalLog.agentId, agentId));
    return { deleted: gone.length };
  });
}
