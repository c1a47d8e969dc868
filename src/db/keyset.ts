import { type SQL, sql } from "drizzle-orm";

/**
 * Where a sweep's scan of one kind of pending work stopped: the sort key (a timestamp or text, as
 * Postgres printed it, so it compares back exactly) and the id of the last row it announced.
 */
export type Keyset = { at: string; id: string };

/**
 * One sweep's page of a kind of work, resumed after `after`: the sweep walks the backlog a page
 * per run and starts over at its end, so every pending row is announced within
 * ceil(backlog / limit) + 1 runs, however many older rows are still queued.
 */
export type Page<T> = { rows: T[]; next: Keyset | undefined };

/** `(key, id) > (after.at, after.id)`, or nothing without a cursor. */
export const afterKey = (key: SQL, id: SQL, after: Keyset | undefined, cast: SQL): SQL =>
  after ? sql`AND (${key}, ${id}) > (${after.at}::${cast}, ${after.id})` : sql``;

/** The next cursor: the last row of a full page, else none (the scan starts over next run). */
export function nextKeyset<T>(rows: T[], limit: number, key: (row: T) => Keyset): Keyset | undefined {
  const last = rows.at(-1);
  return last && rows.length >= limit ? key(last) : undefined;
}
