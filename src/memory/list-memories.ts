import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import { memories } from "../db/schema";
import { Invalid } from "../lib/errors";
import { storableTime, unstorable } from "../lib/storable";
import { memoryAsOf, untilAsOf } from "./as-of";
import { withCitationStatus } from "./citation-status";
import { purgeExpired } from "./deletion/purge-expired";
import type { MemoryDeps } from "./deps";
import { filterConditions, type MemoryFilters } from "./filters";
import { toMemory } from "./serialize";
import type { Memory } from "./types";

type Cursor = { t: string; id: string };

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.t, c.id])).toString("base64url");
}

function decodeCursor(s: string): Cursor {
  try {
    const [t, id] = JSON.parse(Buffer.from(s, "base64url").toString()) as [unknown, unknown];
    // A tampered cursor must not reach Postgres with a time or id it cannot hold.
    if (typeof t === "string" && typeof id === "string" && storableTime(Date.parse(t)) && !unstorable(id))
      return { t, id };
  } catch {
    // fall through to the error below
  }
  throw new Invalid("cursor is not one this API returned", { field: "cursor" });
}

/** A page of an agent's memories, newest first, with a cursor for the next page (null at the end). */
export async function listMemories(
  deps: Pick<MemoryDeps, "db" | "clock">,
  agentId: string,
  opts: MemoryFilters & { limit: number; cursor?: string; asOf?: string },
): Promise<{ memories: Memory[]; nextCursor: string | null }> {
  // As of a time: the memories created by then, each as it stood then (as-of.ts).
  const asOf = opts.asOf === undefined ? undefined : new Date(opts.asOf);
  await purgeExpired(deps, agentId, deps.clock.now());
  const conds = filterConditions(agentId, { ...opts, until: untilAsOf(opts.until, asOf) });
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
  const shown = page.map((r) => (asOf ? memoryAsOf(toMemory(r), asOf) : toMemory(r)));
  return { memories: await withCitationStatus(deps.db, agentId, shown), nextCursor };
}
