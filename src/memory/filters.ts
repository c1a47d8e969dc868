import { eq, gte, inArray, lte, type SQL, sql } from "drizzle-orm";
import { memories, type memoryArchive } from "../db/schema";
import type { MemoryKind } from "./types";

/** Filters shared by list and retrieve: the candidate set. */
export type MemoryFilters = {
  kinds?: MemoryKind[];
  /** createdAt >= since (ISO 8601). */
  since?: string;
  /** createdAt <= until (ISO 8601). */
  until?: string;
  /** JSON containment: memories whose metadata contains this object. */
  metadata?: Record<string, unknown>;
};

/** SQL conditions for the filters (plus the agent), for the query builder. */
export function filterConditions(
  agentId: string,
  f: MemoryFilters,
  table: typeof memories | typeof memoryArchive = memories,
): SQL[] {
  const conds: SQL[] = [eq(table.agentId, agentId)];
  if (f.kinds && f.kinds.length > 0) conds.push(inArray(table.kind, f.kinds));
  if (f.since) conds.push(gte(table.createdAt, new Date(f.since)));
  if (f.until) conds.push(lte(table.createdAt, new Date(f.until)));
  if (f.metadata) conds.push(sql`${table.metadata} @> ${JSON.stringify(f.metadata)}::jsonb`);
  return conds;
}
