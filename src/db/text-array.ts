import { type SQL, sql } from "drizzle-orm";

/** `xs` as a `text[]` value (one bound parameter per element), for `= ANY(…)`, `&&` and array columns. */
export const textArray = (xs: readonly string[]): SQL =>
  sql`ARRAY[${sql.join(
    xs.map((x) => sql`${x}`),
    sql`, `,
  )}]::text[]`;
