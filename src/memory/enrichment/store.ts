import { sql } from "drizzle-orm";
import pgvector from "pgvector";
import { type Db, queryRows } from "../../db/client";
import { isEmbedded } from "../../db/copy-support";
import { memories, memoryEmbeddings } from "../../db/schema";
import { SUPERSEDABLE_KINDS } from "../supersession/detect";
import { atRevision, FIELDS, lockInRowOrder, type MemoryRef, refValues, target } from "./fields";

export type VectorFor = MemoryRef & { vector: number[] };

/**
 * A row a store made ready, with when its text was written (`updated_at`, epoch seconds: set on
 * insert and on every edit that reset enrichment), for the enrichment-lag metric.
 */
export type MadeReady = { id: string; writtenAt: number };

/** A row `storeEmbeddings` made ready, and whether it was marked to be checked for supersession. */
export type Embedded = MadeReady & { supersessionDue: boolean };

// Seconds since the epoch as the difference of two timestamptz: date_part on an interval is
// IMMUTABLE, on a timestamptz only STABLE, which Citus refuses in the RETURNING of a distributed write.
const writtenAt = sql`date_part('epoch', ${memories.updatedAt} - 'epoch'::timestamptz) AS "writtenAt"`;

const e = memoryEmbeddings;

/**
 * Stores vectors of `model` for memories still at the given revision, one statement per agent. The
 * `FOR SHARE` lock makes a concurrent description change wait for (and then delete) the vector,
 * or makes this insert skip the row: a deleted memory never comes back, a newer text wins. Per
 * agent because Citus runs `FOR SHARE` only on one shard (a chunk of several agents' rows failed
 * every time there: "could not run distributed query with FOR UPDATE/SHARE commands").
 * `created_at` of an update is the insert's default (now()): Citus allows no function that is not
 * IMMUTABLE in a DO UPDATE clause.
 */
export async function insertVectors(db: Db, model: string, items: readonly VectorFor[]): Promise<string[]> {
  const byAgent = new Map<string, VectorFor[]>();
  for (const i of items) byAgent.set(i.agentId, [...(byAgent.get(i.agentId) ?? []), i]);
  const stored: string[] = [];
  for (const [agentId, mine] of byAgent) stored.push(...(await insertAgentVectors(db, model, agentId, mine)));
  return stored;
}

async function insertAgentVectors(
  db: Db,
  model: string,
  agentId: string,
  items: readonly VectorFor[],
): Promise<string[]> {
  const values = sql.join(
    items.map(
      (i) =>
        sql`(${i.agentId}::text, ${i.memoryId}::text, ${i.revision}::int, ${pgvector.toSql(i.vector)}::vector)`,
    ),
    sql`, `,
  );
  const rows = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO ${e} (${target(e.memoryId)}, ${target(e.agentId)}, ${target(e.model)}, ${target(e.dimensions)},
          ${target(e.embedding)}, ${target(e.revision)})
        SELECT ${memories.id}, ${memories.agentId}, ${model}, vector_dims(x.vec), x.vec, ${memories.revision}
        FROM (VALUES ${values}) AS x(agent_id, id, rev, vec)
        JOIN ${memories} ON ${atRevision}
        WHERE ${memories.agentId} = ${agentId}
        FOR SHARE OF ${memories}
        ON CONFLICT (${target(e.agentId)}, ${target(e.memoryId)}, ${target(e.model)}) DO UPDATE
          SET ${target(e.embedding)} = excluded.${target(e.embedding)},
              ${target(e.dimensions)} = excluded.${target(e.dimensions)},
              ${target(e.revision)} = excluded.${target(e.revision)},
              ${target(e.createdAt)} = excluded.${target(e.createdAt)}
          WHERE ${e.revision} <= excluded.${target(e.revision)}
        RETURNING ${e.memoryId} AS id`,
  );
  return rows.map((r) => r.id);
}

/**
 * Numbers of vector text per transaction on embedded PGlite: its one backend parses vector text
 * slowly (~2.6 µs a number) and serves every request in turn, so a small transaction holds a
 * batch POST only ~11 ms (docs/adr/0031).
 */
export const EMBEDDED_NUMBERS_PER_TRANSACTION = 4096;

/**
 * Embeds for the configured model: stores the vectors and marks the rows ready, atomically per
 * row; on embedded PGlite in transactions of at most EMBEDDED_NUMBERS_PER_TRANSACTION numbers.
 * With `supersessionDueAt` (supersession is on), rows of a supersedable kind are marked to be
 * checked from then (`supersession_due_at`) in the same statement.
 */
export async function storeEmbeddings(
  db: Db,
  model: string,
  items: readonly VectorFor[],
  opts: { supersessionDueAt?: Date } = {},
): Promise<Embedded[]> {
  if (items.length === 0) return [];
  const dims = Math.max(1, ...items.map((i) => i.vector.length));
  const per = isEmbedded(db)
    ? Math.max(1, Math.floor(EMBEDDED_NUMBERS_PER_TRANSACTION / dims))
    : items.length;
  const made: Embedded[] = [];
  for (let at = 0; at < items.length; at += per)
    made.push(...(await storeGroup(db, model, items.slice(at, at + per), opts.supersessionDueAt)));
  return made;
}

/** One transaction: the rows still pending at their revision marked ready, with their vectors. */
async function storeGroup(
  db: Db,
  model: string,
  items: readonly VectorFor[],
  supersessionDueAt: Date | undefined,
): Promise<Embedded[]> {
  const f = FIELDS.embedding;
  const kinds = sql.join(
    SUPERSEDABLE_KINDS.map((k) => sql`${k}`),
    sql`, `,
  );
  const due = supersessionDueAt
    ? sql`CASE WHEN ${memories.kind} IN (${kinds}) THEN ${supersessionDueAt.toISOString()}::timestamptz END`
    : sql`NULL::timestamptz`;
  return db.transaction(async (tx) => {
    await lockInRowOrder(tx, items);
    // Status first: it locks the rows still pending at this revision, and only those get vectors.
    const ready = await queryRows<MadeReady & { due: boolean }>(
      tx as unknown as Db,
      sql`UPDATE ${memories} SET ${target(f.status)} = 'ready', ${target(f.error)} = NULL,
            ${target(memories.embeddingModel)} = ${model},
            ${target(f.claimedBy)} = NULL, ${target(f.claimedUntil)} = NULL,
            ${target(memories.supersessionDueAt)} = ${due}
          FROM ${refValues(items)}
          WHERE ${atRevision} AND ${f.status} = 'pending'
          RETURNING ${memories.id} AS id, ${writtenAt}, ${memories.supersessionDueAt} IS NOT NULL AS due`,
    );
    const keep = new Set(ready.map((r) => r.id));
    await insertVectors(
      tx as unknown as Db,
      model,
      items.filter((i) => keep.has(i.memoryId)),
    );
    return ready.map((r) => ({ id: r.id, writtenAt: Number(r.writtenAt), supersessionDue: r.due }));
  });
}

/** Stores importance scores for rows still pending at the given revision. */
export async function storeScores(
  db: Db,
  source: string,
  items: readonly (MemoryRef & { score: number })[],
): Promise<MadeReady[]> {
  if (items.length === 0) return [];
  const f = FIELDS.importance;
  const values = sql.join(
    items.map(
      (i) => sql`(${i.agentId}::text, ${i.memoryId}::text, ${i.revision}::int, ${i.score}::smallint)`,
    ),
    sql`, `,
  );
  const rows = await db.transaction(async (tx) => {
    await lockInRowOrder(tx, items);
    return queryRows<MadeReady>(
      tx,
      sql`UPDATE ${memories} SET ${target(memories.importance)} = x.score, ${target(f.status)} = 'ready',
          ${target(f.error)} = NULL, ${target(memories.importanceSource)} = ${source},
          ${target(f.claimedBy)} = NULL, ${target(f.claimedUntil)} = NULL
        FROM (VALUES ${values}) AS x(agent_id, id, rev, score)
        WHERE ${atRevision} AND ${f.status} = 'pending'
        RETURNING ${memories.id} AS id, ${writtenAt}`,
    );
  });
  return rows.map((r) => ({ id: r.id, writtenAt: Number(r.writtenAt) }));
}
