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
import type { Db } from "../../db/client";
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

/**
 * Locks the rows of `items` in the one row order (docs/adr/0027): agent by agent (code-unit
 * order), each agent's rows by `id COLLATE "C"` — the order of retrieve's touch, the erase and
 * retention. Every enrichment statement that updates several rows runs after it, in the same
 * transaction: an UPDATE … FROM (VALUES …) locks rows in its join's order, so an embed and a score
 * job over one chunk deadlocked (40P01). One statement per agent, each on one shard on Citus.
 */
export async function lockInRowOrder(tx: Pick<Db, "execute">, items: readonly MemoryRef[]): Promise<void> {
  const byAgent = new Map<string, string[]>();
  for (const i of items) {
    const ids = byAgent.get(i.agentId);
    if (ids) ids.push(i.memoryId);
    else byAgent.set(i.agentId, [i.memoryId]);
  }
  for (const agentId of [...byAgent.keys()].sort()) {
    const ids = byAgent.get(agentId) ?? [];
    await tx.execute(
      sql`SELECT 1 FROM ${memories} WHERE ${memories.agentId} = ${agentId} AND ${memories.id} IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}) ORDER BY ${memories.id} COLLATE "C" FOR NO KEY UPDATE`,
    );
  }
}
