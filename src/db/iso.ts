import { type SQL, sql } from "drizzle-orm";

/**
 * A timestamptz as ISO 8601 UTC text with milliseconds (`2026-01-10T12:00:00.000Z`), formatted in
 * SQL so raw queries return the API's shape whichever driver runs them (postgres-js and PGlite
 * parse timestamps differently). `memstream_iso` (migration 0017) is `to_char` declared IMMUTABLE,
 * which it is for this all-numeric UTC format; Citus refuses a merely STABLE function such as
 * `to_char` in the RETURNING clause of a distributed write (the touch of a retrieve has one).
 */
export const isoUtc = (column: SQL): SQL => sql`memstream_iso(${column})`;
