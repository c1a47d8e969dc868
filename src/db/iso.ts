import { type SQL, sql } from "drizzle-orm";

/**
 * A timestamptz as ISO 8601 UTC text with milliseconds (`2026-01-10T12:00:00.000Z`), formatted in
 * SQL so raw queries return the API's shape whichever driver runs them (postgres-js and PGlite
 * parse timestamps differently).
 */
export const isoUtc = (column: SQL): SQL =>
  sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
