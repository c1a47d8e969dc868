/**
 * Citations of deleted memories. Rule (docs/adr/0005-reflection-runs.md): deleting a memory never
 * changes the reflections that cite it; `citations` keeps the ids as stored (the record of what
 * the reflection was drawn from), and reads add `missingCitations`, the cited ids that no longer
 * exist, to any reflection that has some.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { memories, memoryArchive } from "../db/schema";
import type { Memory } from "./types";

/** Sets `missingCitations` on memories whose cited memories are gone. One indexed query, none when nothing cites. */
export async function withCitationStatus<T extends Memory>(
  db: Pick<Db, "select">,
  agentId: string,
  items: T[],
): Promise<T[]> {
  const cited = [...new Set(items.flatMap((m) => m.citations))];
  if (cited.length === 0) return items;
  const found = await db
    .select({ id: memories.id })
    .from(memories)
    .where(and(eq(memories.agentId, agentId), inArray(memories.id, cited)));
  const alive = new Set(found.map((r) => r.id));
  // An archived memory (docs/adr/0044) still exists: a summary's members are all archived.
  const rest = cited.filter((c) => !alive.has(c));
  if (rest.length > 0) {
    const archived = await db
      .select({ id: memoryArchive.id })
      .from(memoryArchive)
      .where(and(eq(memoryArchive.agentId, agentId), inArray(memoryArchive.id, rest)));
    for (const r of archived) alive.add(r.id);
  }
  for (const m of items) {
    const missing = m.citations.filter((c) => !alive.has(c));
    if (missing.length > 0) m.missingCitations = missing;
  }
  return items;
}
