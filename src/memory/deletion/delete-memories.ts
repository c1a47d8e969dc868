import { and, asc, count, inArray, type SQL } from "drizzle-orm";
import { retryOnDeadlock } from "../../db/retry-deadlock";
import { memories, memoryArchive } from "../../db/schema";
import { Invalid } from "../../lib/errors";
import type { MemoryDeps } from "../deps";
import type { DerivedCounts } from "../derived/delete-derived";
import { agentEpoch, assertNotErased } from "../erasure/guard";
import { recorded } from "../events";
import { filterConditions, type MemoryFilters } from "../filters";
import { addDeleted, deleteIds } from "./delete-ids";

/** Bounds of one delete request: ids per request; memories a filter deletes per request (then `more`). */
export const DELETE_LIMITS = { ids: 1_000, perRequest: 10_000, batch: 500 } as const;

/** Which memories: these ids, or every memory matching the filter (`source` = metadata.source). */
export type DeleteSelection =
  | { ids: string[]; filter?: undefined }
  | { ids?: undefined; filter: MemoryFilters & { source?: string } };

export type DeleteReport = {
  dryRun: boolean;
  /** Memories deleted (dry run: that match), derived ones included. */
  count: number;
  byKind: Record<string, number>;
  /** Reflections and lessons deleted with their evidence (not counted by a dry run). */
  derived: DerivedCounts;
  /** Asked ids the agent does not have (ids only). */
  notFound?: string[];
  /** A filter matched more than one request deletes: ask again. */
  more: boolean;
};

/** The filter as SQL conditions, or a 400 when it names nothing (deleting everything is an erase). */
function filterSql(
  agentId: string,
  f: MemoryFilters & { source?: string },
  table: typeof memories | typeof memoryArchive,
): SQL[] {
  const { source, ...rest } = f;
  const metadata = source === undefined ? rest.metadata : { ...rest.metadata, source };
  const named = [rest.kinds?.length, rest.since, rest.until, metadata].some(
    (x) => x !== undefined && x !== 0,
  );
  if (!named) {
    throw new Invalid(
      "filter names no condition (kinds, metadata, since, until, source); to delete everything, erase the agent",
      { field: "filter" },
    );
  }
  return filterConditions(agentId, { ...rest, metadata }, table);
}

/**
 * Deletes the agent's memories by ids (at most 1,000) or by filter, through the one deletion path
 * (delete-ids.ts: vectors, lexical statistics and derived reflections and lessons go in the same
 * transaction), oldest first, DELETE_LIMITS.batch per transaction, at most DELETE_LIMITS.perRequest
 * per request (`more` says to ask again). A dry run counts what matches and deletes nothing.
 */
export async function deleteMemories(
  deps: Pick<MemoryDeps, "db"> & Partial<Pick<MemoryDeps, "announce">>,
  agentId: string,
  selection: DeleteSelection,
  dryRun = false,
): Promise<DeleteReport> {
  const report = await deleteSelected(deps, agentId, selection, dryRun);
  // Their `memory.deleted` events, if the agent has subscriptions (src/outgoing).
  if (report.count > 0 && !dryRun) await deps.announce?.(recorded([{ agentId }]));
  return report;
}

async function deleteSelected(
  deps: Pick<MemoryDeps, "db">,
  agentId: string,
  selection: DeleteSelection,
  dryRun: boolean,
): Promise<DeleteReport> {
  const report: DeleteReport = { dryRun, count: 0, byKind: {}, derived: {}, more: false };
  if (selection.ids?.length === 0) return report;
  // Both tiers that hold memories (docs/adr/0044): a filter reaches archived memories too.
  const tiers = [memories, memoryArchive] as const;
  const conds = (t: (typeof tiers)[number]) =>
    selection.ids !== undefined
      ? [...filterConditions(agentId, {}, t), inArray(t.id, [...new Set(selection.ids)])]
      : filterSql(agentId, selection.filter, t);
  if (dryRun) {
    for (const t of tiers) {
      const rows = await deps.db
        .select({ kind: t.kind, n: count() })
        .from(t)
        .where(and(...conds(t)))
        .groupBy(t.kind);
      for (const r of rows) {
        report.byKind[r.kind] = (report.byKind[r.kind] ?? 0) + Number(r.n);
        report.count += Number(r.n);
      }
    }
    if (selection.ids) report.notFound = await missing(deps, agentId, selection.ids);
    return report;
  }
  const since = { epoch: await agentEpoch(deps.db, agentId) };
  if (selection.ids) {
    // At most 1,000 ids: one transaction (deleteIds reaches both tiers).
    const deleted = await retryOnDeadlock(() =>
      deps.db.transaction(async (tx) => {
        await assertNotErased(tx, agentId, since);
        return deleteIds(tx, agentId, selection.ids);
      }),
    );
    addDeleted(report, deleted);
    const gone = new Set(deleted.ids);
    report.notFound = [...new Set(selection.ids)].filter((id) => !gone.has(id));
    return report;
  }
  let picked = 0;
  for (const t of tiers) {
    for (;;) {
      const room = Math.min(DELETE_LIMITS.batch, DELETE_LIMITS.perRequest - picked);
      if (room <= 0) break;
      const done = await retryOnDeadlock(() =>
        deps.db.transaction(async (tx) => {
          // Shares the agent's lock: an erase in flight is waited for, and one since `since` voids this (409).
          await assertNotErased(tx, agentId, since);
          const ids = await tx
            .select({ id: t.id })
            .from(t)
            .where(and(...conds(t)))
            .orderBy(asc(t.createdAt), asc(t.id))
            .limit(room);
          return {
            n: ids.length,
            deleted: await deleteIds(
              tx,
              agentId,
              ids.map((r) => r.id),
            ),
          };
        }),
      );
      picked += done.n;
      addDeleted(report, done.deleted);
      if (done.n < room) break;
    }
  }
  if (picked >= DELETE_LIMITS.perRequest) {
    for (const t of tiers) {
      const [left] = await deps.db
        .select({ id: t.id })
        .from(t)
        .where(and(...conds(t)))
        .limit(1);
      if (left) report.more = true;
    }
  }
  return report;
}

/** Ids of `ids` the agent does not have now. */
async function missing(deps: Pick<MemoryDeps, "db">, agentId: string, ids: string[]): Promise<string[]> {
  const have = new Set<string>();
  for (const t of [memories, memoryArchive] as const) {
    const found = await deps.db
      .select({ id: t.id })
      .from(t)
      .where(and(...filterConditions(agentId, {}, t), inArray(t.id, [...new Set(ids)])));
    for (const r of found) have.add(r.id);
  }
  return [...new Set(ids)].filter((id) => !have.has(id));
}
