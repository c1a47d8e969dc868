import { and, desc, eq, lt } from "drizzle-orm";
import { memories, memoryArchive, memoryRevisions } from "../../db/schema";
import { Invalid, NotFound } from "../../lib/errors";
import { purgeExpired } from "../deletion/purge-expired";
import type { MemoryDeps } from "../deps";

/** One replaced version of a memory: the values a PATCH overwrote, and when. */
export type MemoryRevision = {
  revision: number;
  description: string;
  importance: number | null;
  metadata: Record<string, unknown>;
  replacedAt: string;
};

// The cursor is the last revision number shown: the next page is the revisions below it.
const encodeCursor = (revision: number) => Buffer.from(String(revision)).toString("base64url");

function decodeCursor(s: string): number {
  const text = Buffer.from(s, "base64url").toString();
  const n = /^[1-9][0-9]{0,8}$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isInteger(n)) return n;
  throw new Invalid("cursor is not one this API returned", { field: "cursor" });
}

/**
 * A memory's revisions, newest first, a page at a time (`nextCursor` null at the end). An unknown
 * memory, another agent's included, is NotFound; an expired one is purged first, as every read does.
 */
export async function listMemoryHistory(
  deps: Pick<MemoryDeps, "db" | "clock">,
  agentId: string,
  memoryId: string,
  opts: { limit: number; cursor?: string },
): Promise<{ memoryId: string; revisions: MemoryRevision[]; nextCursor: string | null }> {
  const before = opts.cursor === undefined ? undefined : decodeCursor(opts.cursor);
  await purgeExpired(deps, agentId, deps.clock.now());
  const [found] = await deps.db
    .select({ id: memories.id })
    .from(memories)
    .where(and(eq(memories.agentId, agentId), eq(memories.id, memoryId)));
  if (!found) return archivedHistory(deps, agentId, memoryId, opts.limit, before);
  const rows = await deps.db
    .select()
    .from(memoryRevisions)
    .where(
      and(
        eq(memoryRevisions.agentId, agentId),
        eq(memoryRevisions.memoryId, memoryId),
        before === undefined ? undefined : lt(memoryRevisions.revision, before),
      ),
    )
    .orderBy(desc(memoryRevisions.revision))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  return {
    memoryId,
    revisions: page.map((r) => ({
      revision: r.revision,
      description: r.description,
      importance: r.importance,
      metadata: r.metadata,
      replacedAt: r.replacedAt.toISOString(),
    })),
    nextCursor: rows.length > opts.limit && last ? encodeCursor(last.revision) : null,
  };
}

/** An archived memory's revisions (kept with it in the archive tier, docs/adr/0044), paged the same way. */
async function archivedHistory(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  memoryId: string,
  limit: number,
  before: number | undefined,
): Promise<{ memoryId: string; revisions: MemoryRevision[]; nextCursor: string | null }> {
  const [row] = await deps.db
    .select({ revisions: memoryArchive.revisions })
    .from(memoryArchive)
    .where(and(eq(memoryArchive.agentId, agentId), eq(memoryArchive.id, memoryId)));
  if (!row) throw new NotFound(`memory ${memoryId} not found for agent ${agentId}`, { id: memoryId });
  const all = (row.revisions as MemoryRevision[])
    .map((r) => ({ ...r, replacedAt: new Date(r.replacedAt).toISOString() }))
    .filter((r) => before === undefined || r.revision < before)
    .sort((a, b) => b.revision - a.revision);
  const page = all.slice(0, limit);
  const last = page.at(-1);
  return {
    memoryId,
    revisions: page,
    nextCursor: all.length > limit && last ? encodeCursor(last.revision) : null,
  };
}
