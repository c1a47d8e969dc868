/**
 * The enrichment state machine of a memory, per field (importance, embedding):
 *
 *   pending ──claim──▶ pending + claimed (by a job, until a time) ──store──▶ ready
 *      ▲                      │ lapsed claim: another job may claim          │
 *      │                      └──last attempt fails──▶ failed ──retry───────┤
 *      └──────────── description edited (reset) ◀────────────────────────────┘
 *
 * Every transition lives in this folder (claim, store, fail, reset, retry, stale) and names its
 * columns through `memories` (drizzle), so renaming a column fails the typecheck.
 */
import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { memories } from "../../db/schema";

/** The memory fields enrichment fills in. */
export type EnrichedField = "importance" | "embedding";

/** A memory at the revision a job was announced with. */
/** A memory at one revision; the agent id routes every statement to the agent's rows (Citus, ADR 0011). */
export type MemoryRef = { memoryId: string; agentId: string; revision: number };

/** The state columns of each field. */
export const FIELDS = {
  importance: {
    status: memories.importanceStatus,
    error: memories.importanceError,
    claimedBy: memories.importanceClaimedBy,
    claimedUntil: memories.importanceClaimedUntil,
  },
  embedding: {
    status: memories.embeddingStatus,
    error: memories.embeddingError,
    claimedBy: memories.embeddingClaimedBy,
    claimedUntil: memories.embeddingClaimedUntil,
  },
} as const satisfies Record<EnrichedField, Record<string, PgColumn>>;

/** A column as the target of `SET` (unqualified, as Postgres requires there). */
export const target = (column: PgColumn): SQL => sql`${sql.identifier(column.name)}`;

/** `(VALUES (id, rev), ...) AS x(id, rev)` of a chunk, to join against memories. */
export function refValues(items: readonly MemoryRef[]): SQL {
  return sql`(VALUES ${sql.join(
    items.map((i) => sql`(${i.agentId}::text, ${i.memoryId}::text, ${i.revision}::int)`),
    sql`, `,
  )}) AS x(agent_id, id, rev)`;
}

/** The row is the announced one: same id, same revision (a newer text discards old results). */
export const atRevision = sql`${memories.agentId} = x.agent_id AND ${memories.id} = x.id AND ${memories.revision} = x.rev`;

/** Truncates an error message for storage on the row. */
export const errorText = (err: unknown): string => {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
};
