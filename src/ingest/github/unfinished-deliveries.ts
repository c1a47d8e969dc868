import { and, asc, eq, lt, or } from "drizzle-orm";
import { githubDeliveries } from "../../db/schema";
import type { MemoryDeps } from "../../memory/deps";

/**
 * Deliveries whose processing should be (re)started, oldest first: `received` for longer than
 * `olderThanMs` (the enqueue was lost: a crash, Redis down) and `failed` ones that failed longer
 * than `olderThanMs` ago with fewer than `maxAttempts` failures (their job was lost before it used
 * its attempts). A delivery at the limit stays `failed` until retried by hand. The database is the
 * source of truth; the sweep enqueues what this returns.
 */
export async function unfinishedDeliveries(
  deps: Pick<MemoryDeps, "db" | "clock">,
  opts: { olderThanMs: number; maxAttempts: number; limit: number },
): Promise<string[]> {
  const cutoff = new Date(deps.clock.now().getTime() - opts.olderThanMs);
  const d = githubDeliveries;
  const rows = await deps.db
    .select({ id: d.id })
    .from(d)
    .where(
      or(
        and(eq(d.status, "received"), lt(d.receivedAt, cutoff)),
        and(eq(d.status, "failed"), lt(d.attempts, opts.maxAttempts), lt(d.processedAt, cutoff)),
      ),
    )
    .orderBy(asc(d.receivedAt))
    .limit(opts.limit);
  return rows.map((r) => r.id);
}
