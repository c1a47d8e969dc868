import { and, asc, inArray, lt, sql } from "drizzle-orm";
import { afterKey, type Keyset, nextKeyset, type Page } from "../../../db/keyset";
import { githubImports } from "../../../db/schema";
import type { MemoryDeps } from "../../../memory/deps";

/**
 * Imports whose run should be (re)started, oldest first: `queued` or `running` with no progress
 * (`updated_at`, written with every committed page) for longer than `olderThanMs` — the enqueue
 * was lost (Redis down) or the process running it died (the in-process queue; a BullMQ job of a
 * dead worker is handed over by BullMQ itself). One whose job is still queued or running is
 * harmless to announce again: the job id is the import id. Each comes with the first of its
 * agents; an import without agent ids (routed, only the command opens those) is left to the
 * command, which resumes it when run again. `failed` ones wait for a POST (a resume) like a
 * delivery past its attempts. A page per sweep run, resumed after `after`.
 */
export async function unfinishedImports(
  deps: Pick<MemoryDeps, "db" | "clock">,
  opts: { olderThanMs: number; limit: number; after?: Keyset },
): Promise<Page<{ importId: string; agentId: string }>> {
  const cutoff = new Date(deps.clock.now().getTime() - opts.olderThanMs);
  const i = githubImports;
  const rows = await deps.db
    .select({ id: i.id, agentIds: i.agentIds, at: sql<string>`${i.createdAt}::text` })
    .from(i)
    .where(
      and(
        inArray(i.status, ["queued", "running"]),
        lt(i.updatedAt, cutoff),
        sql`cardinality(${i.agentIds}) > 0 ${afterKey(sql`${i.createdAt}`, sql`${i.id}`, opts.after, sql`timestamptz`)}`,
      ),
    )
    .orderBy(asc(i.createdAt), asc(i.id))
    .limit(opts.limit);
  return {
    rows: rows.flatMap((r) => (r.agentIds[0] ? [{ importId: r.id, agentId: r.agentIds[0] }] : [])),
    next: nextKeyset(rows, opts.limit, (r) => r),
  };
}
