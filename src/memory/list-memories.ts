import { and, desc, eq, gte, inArray, lt, lte, or, type SQL, sql } from "drizzle-orm";
import { memories } from "../db/schema";
import { Invalid } from "../lib/errors";
import { withCitationStatus } from "./citation-status";
import type { MemoryDeps } from "./deps";
import { toMemory } from "./serialize";
import type { Memory, MemoryKind } from "./types";

/** Filters shared by list and retrieve: the candidate set. */
export type MemoryFilters = {
  kinds?: MemoryKind[];
  /** createdAt >= since (ISO 8601). */
  since?: string;
  /** createdAt <= until (ISO 8601). */
  until?: string;
  /** JSON containment: memories whose metadata contains this object. */
  metadata?: Record<string, unknown>;
};

/** SQL conditions for the filters (plus the agent), for the query builder. */
export function filterConditions(agentId: string, f: MemoryFilters): SQL[] {
  const conds: SQL[] = [eq(memories.agentId, agentId)];
  if (f.kinds && f.kinds.length > 0) conds.push(inArray(memories.kind, f.kinds));
  if (f.since) conds.push(gte(memories.createdAt, new Date(f.since)));
  if (f.until) conds.push(lte(memories.createdAt, new Date(f.until)));
  if (f.metadata) conds.push(sql`${memories.metadata} @> ${JSON.stringify(f.metadata)}::jsonb`);
  return conds;
}

type Cursor = { t: string; id: string };

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.t, c.id])).toString("base64url");
}

function decodeCursor(s: string): Cursor {
  try {
    const [t, id] = JSON.parse(Buffer.from(s, "base64url").toString()) as [unknown, unknown];
    if (typeof t === "string" && typeof id === "string" && !Number.isNaN(Date.parse(t))) return { t, id };
  } catch {
    // fall through to the error below
  }
  throw new Invalid("cursor is not one this API returned", { field: "cursor" });
}

/** A page of an agent's memories, newest first, with a cursor for the next page (null at the end). */
export async function listMemories(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  opts: MemoryFilters & { limit: number; cursor?: string },
): Promise<{ memories: Memory[]; nextCursor: string | null }> {
  const conds = filterConditions(agentId, opts);
  if (opts.cursor) {
    const c = decodeCursor(opts.cursor);
    const t = new Date(c.t);
    conds.push(or(lt(memories.createdAt, t), and(eq(memories.createdAt, t), lt(memories.id, c.id))) as SQL);
  }
  const rows = await deps.db
    .select()
    .from(memories)
    .where(and(...conds))
    .orderBy(desc(memories.createdAt), desc(memories.id))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > opts.limit && last ? encodeCursor({ t: last.createdAt.toISOString(), id: last.id }) : null;
  return { memories: await withCitationStatus(deps.db, agentId, page.map(toMemory)), nextCursor };
}
