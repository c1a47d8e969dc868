import { customType } from "drizzle-orm/pg-core";

/**
 * A Postgres full-text `tsvector` column. Only ever written by Postgres itself (a generated
 * column) and read inside SQL, so no driver conversion is needed.
 */
export const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => "tsvector",
});
