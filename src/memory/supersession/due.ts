import { sql } from "drizzle-orm";
import type { Core } from "../../core";
import { type Db, queryRows } from "../../db/client";
import { afterKey, type Keyset, nextKeyset, type Page } from "../../db/keyset";
import { memories } from "../../db/schema";
import { target } from "../enrichment/fields";
import type { MemoryWork } from "../events";

/*
 * The durable mark of a supersession check still to make (`memories.supersession_due_at`,
 * docs/adr/0042): set when a memory gets a vector while supersession is on (create-memories.ts,
 * enrichment/store.ts), cleared here once the check ran, moved to the next budget day while the
 * agent's LLM budget is spent, and found again by the sweep when its announcement was lost.
 */

/** One memory's mark at its revision (one row by key: no lock order to keep). */
const marked = (ref: MemoryWork) =>
  sql`${memories.agentId} = ${ref.agentId} AND ${memories.id} = ${ref.memoryId}
    AND ${memories.revision} = ${ref.revision} AND ${memories.supersessionDueAt} IS NOT NULL`;

/**
 * The check of this memory at this revision is made: its mark is cleared. A memory edited since
 * keeps the mark its new vector set (the new text is checked in turn).
 */
export async function checkedForSupersession(db: Pick<Db, "execute">, ref: MemoryWork): Promise<void> {
  await db.execute(
    sql`UPDATE ${memories} SET ${target(memories.supersessionDueAt)} = NULL WHERE ${marked(ref)}`,
  );
}

/** The check of this memory waits until `until` (its agent's budget day turns): the sweep asks again then. */
export async function deferSupersession(
  db: Pick<Db, "execute">,
  ref: MemoryWork,
  until: Date,
): Promise<void> {
  await db.execute(
    sql`UPDATE ${memories} SET ${target(memories.supersessionDueAt)} = ${until.toISOString()}::timestamptz
        WHERE ${marked(ref)}`,
  );
}

/**
 * Memories whose supersession check has been due for longer than `afterMs` (its announcement was
 * lost, or its budget day has turned), oldest first after `after`, at most `limit`, through the
 * partial index of marked rows only. "Now" is the clock's, the time the marks were written with.
 */
export async function dueForSupersession(
  deps: Pick<Core, "db" | "clock">,
  opts: { afterMs: number; limit: number; after?: Keyset },
): Promise<Page<MemoryWork>> {
  const before = new Date(deps.clock.now().getTime() - opts.afterMs).toISOString();
  const due = memories.supersessionDueAt;
  const rows = await queryRows<MemoryWork & { at: string }>(
    deps.db,
    sql`SELECT ${memories.id} AS "memoryId", ${memories.agentId} AS "agentId", ${memories.revision} AS revision,
          ${due}::text AS at
        FROM ${memories}
        WHERE ${due} IS NOT NULL AND ${due} < ${before}::timestamptz
          ${afterKey(sql`${due}`, sql`${memories.id}`, opts.after, sql`timestamptz`)}
        ORDER BY ${due}, ${memories.id} LIMIT ${opts.limit}`,
  );
  return {
    rows: rows.map(({ at: _, ...r }) => r),
    next: nextKeyset(rows, opts.limit, (r) => ({ at: r.at, id: r.memoryId })),
  };
}
