import { customType } from "drizzle-orm/pg-core";
import pgvector from "pgvector";

/**
 * A pgvector column with no fixed dimension, so vectors of any model and size can be stored
 * side by side (each row records its model and dimension). Indexes are built per model on a
 * dimension-cast expression; see docs/adr/0006-memory-storage-layout.md.
 */
export const vector = customType<{ data: number[]; driverData: string }>({
  dataType: () => "vector",
  toDriver: (value) => pgvector.toSql(value) as string,
  fromDriver: (value) => pgvector.fromSql(value) as number[],
});
