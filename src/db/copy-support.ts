/**
 * Database handles whose server takes no COPY FROM STDIN: embedded PGlite behind its socket
 * (pglite-thread.ts) runs one protocol message at a time and has no copy-in state. Keyed by the
 * drizzle session's options object, which every transaction's session shares with the pool's.
 */
const WITHOUT_COPY = new WeakSet<object>();

type WithSession = { session?: { options?: unknown } };
const sessionOptions = (db: unknown) => (db as WithSession).session?.options;

/** Marks a drizzle handle (and so its transactions) as one whose server takes no COPY FROM STDIN. */
export function withoutCopy(db: unknown): void {
  const options = sessionOptions(db);
  if (typeof options === "object" && options !== null) WITHOUT_COPY.add(options);
}

/**
 * Whether a drizzle handle (pool or transaction) is embedded PGlite's, whose one backend runs one
 * statement at a time for every connection: a long statement there holds every request.
 */
export function isEmbedded(db: unknown): boolean {
  return !canCopy(db);
}

/** Whether a drizzle handle (pool or transaction) may COPY FROM STDIN. */
export function canCopy(db: unknown): boolean {
  const options = sessionOptions(db);
  return !(typeof options === "object" && options !== null && WITHOUT_COPY.has(options));
}
