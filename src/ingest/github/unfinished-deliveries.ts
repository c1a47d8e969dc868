import { and, asc, eq, lt, or, sql } from "drizzle-orm";
import { afterKey, type Keyset, nextKeyset, type Page } from "../../db/keyset";
import { githubDeliveries } from "../../db/schema";
import type { MemoryDeps } from "../../memory/deps";

/**
 * Deliveries whose processing should be (re)started, oldest first after `after`: `received` for
 * longer than `olderThanMs` (the enqueue was lost: a crash, Redis down) and `failed` ones that
 * failed longer than `olderThanMs` ago with fewer than `maxAttempts` failures (their job was lost
 * before it used its attempts). A delivery at the limit stays `failed` until retried by hand. The
 * database is the source of truth; the sweep enqueues what this returns, a page per run.
 */
export async function unfinishedDeliveries(
  deps: Pick<MemoryDeps, "db" | "clock">,
  opts: { olderThanMs: number; maxAttempts: number; limit: number; after?: Keyset },
): Promise<Page<string>> {
  const cutoff = new Date(deps.clock.now().getTime() - opts.olderThanMs);
  const d = githubDeliveries;
  const rows = await deps.db
    .select({ id: d.id, at: sql<string>`${d.receivedAt}::text` })
    .from(d)
    .where(
      and(
        or(
          and(eq(d.status, "received"), lt(d.receivedAt, cutoff)),
          and(eq(d.status, "failed"), lt(d.attempts, opts.maxAttempts), lt(d.processedAt, cutoff)),
        ),
        sql`true ${afterKey(sql`${d.receivedAt}`, sql`${d.id}`, opts.after, sql`timestamptz`)}`,
      ),
    )
    .orderBy(asc(d.receivedAt), asc(d.id))
    .limit(opts.limit);
  return { rows: rows.map((r) => r.id), next: nextKeyset(rows, opts.limit, (r) => r) };
}
