import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import { memories, memoryArchive } from "../db/schema";
import { Invalid } from "../lib/errors";
import { storableTime, unstorable } from "../lib/storable";
import { memoryAsOf, untilAsOf } from "./as-of";
import { withCitationStatus } from "./citation-status";
import { purgeExpired } from "./deletion/purge-expired";
import type { MemoryDeps } from "./deps";
import { filterConditions, type MemoryFilters } from "./filters";
import { toMemory } from "./serialize";
import { readArchived } from "./tiers/archived";
import { DEFAULT_TIERS, tierKinds } from "./tiers/kinds";
import type { Memory, Tier } from "./types";

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

/**
 * A page of an agent's memories, newest first, with a cursor for the next page (null at the end).
 * `tiers` (docs/adr/0044; default recent + summary) may name the archive: each table is read with
 * the same keyset condition and the pages merged, so one cursor walks both.
 */
export async function listMemories(
  deps: Pick<MemoryDeps, "db" | "clock">,
  agentId: string,
  opts: MemoryFilters & { limit: number; cursor?: string; asOf?: string; tiers?: Tier[] },
): Promise<{ memories: Memory[]; nextCursor: string | null }> {
  // As of a time: the memories created by then, each as it stood then (as-of.ts).
  const asOf = opts.asOf === undefined ? undefined : new Date(opts.asOf);
  await purgeExpired(deps, agentId, deps.clock.now());
  const tiers = opts.tiers ?? DEFAULT_TIERS;
  const ranked = tiers.filter((t): t is Exclude<Tier, "archive"> => t !== "archive");
  const filters = { ...opts, until: untilAsOf(opts.until, asOf) };
  const c = opts.cursor ? decodeCursor(opts.cursor) : null;
  const after = (t: typeof memories | typeof memoryArchive) =>
    c ? [or(lt(t.createdAt, new Date(c.t)), and(eq(t.createdAt, new Date(c.t)), lt(t.id, c.id))) as SQL] : [];
  type Item = { createdAt: Date; id: string; memory: Memory };
  const items: Item[] = [];
  if (ranked.length > 0) {
    const kinds = tierKinds(opts.kinds, ranked);
    const conds = [...filterConditions(agentId, { ...filters, kinds }), ...after(memories)];
    const rows = await deps.db
      .select()
      .from(memories)
      .where(and(...conds))
      .orderBy(desc(memories.createdAt), desc(memories.id))
      .limit(opts.limit + 1);
    for (const r of rows)
      items.push({
        createdAt: r.createdAt,
        id: r.id,
        memory: asOf ? memoryAsOf(toMemory(r), asOf) : toMemory(r),
      });
  }
  if (tiers.includes("archive")) {
    const conds = [...filterConditions(agentId, filters, memoryArchive), ...after(memoryArchive)];
    const ids = await deps.db
      .select({ id: memoryArchive.id })
      .from(memoryArchive)
      .where(and(...conds))
      .orderBy(desc(memoryArchive.createdAt), desc(memoryArchive.id))
      .limit(opts.limit + 1);
    for (const m of await readArchived(
      deps.db,
      agentId,
      ids.map((r) => r.id),
    ))
      items.push({ createdAt: new Date(m.createdAt), id: m.id, memory: asOf ? memoryAsOf(m, asOf) : m });
  }
  items.sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  const page = items.slice(0, opts.limit);
  const last = page[page.length - 1];
  const nextCursor =
    items.length > opts.limit && last ? encodeCursor({ t: last.createdAt.toISOString(), id: last.id }) : null;
  return {
    memories: await withCitationStatus(
      deps.db,
      agentId,
      page.map((i) => i.memory),
    ),
    nextCursor,
  };
}
