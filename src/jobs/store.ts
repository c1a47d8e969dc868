import { sql } from "drizzle-orm";
import pgvector from "pgvector";
import { type Db, queryRows } from "../db/client";
import type { MemoryRef } from "./catalog";
import { refMatch, refValues } from "./claims";

export type VectorFor = MemoryRef & { vector: number[] };

/**
 * Stores vectors of `model` for memories still at the given revision, in one statement. The
 * `FOR SHARE` lock makes a concurrent description change wait for (and then delete) the vector,
 * or makes this insert skip the row: a deleted memory never comes back, a newer text wins.
 */
export async function insertVectors(db: Db, model: string, items: readonly VectorFor[]): Promise<string[]> {
  if (items.length === 0) return [];
  const values = sql.join(
    items.map(
      (i) =>
        sql`(${i.agentId}::text, ${i.memoryId}::text, ${i.revision}::int, ${pgvector.toSql(i.vector)}::vector)`,
    ),
    sql`, `,
  );
  const rows = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
        SELECT m.id, m.agent_id, ${model}, vector_dims(x.vec), x.vec, m.revision
        FROM (VALUES ${values}) AS x(agent, id, rev, vec)
        JOIN memories m ON ${refMatch}
        FOR SHARE OF m
        ON CONFLICT (agent_id, memory_id, model) DO UPDATE
          SET embedding = excluded.embedding, dimensions = excluded.dimensions,
              revision = excluded.revision, created_at = now()
          WHERE memory_embeddings.revision <= excluded.revision
        RETURNING memory_id AS id`,
  );
  return rows.map((r) => r.id);
}

/** Embeds for the configured model: stores the vectors and marks the rows ready, atomically. */
export async function storeEmbeddings(db: Db, model: string, items: readonly VectorFor[]): Promise<number> {
  return db.transaction(async (tx) => {
    // Status first: it locks the rows still pending at this revision, and only those get vectors.
    const ready = await queryRows<{ id: string; rev: number }>(
      tx as unknown as Db,
      sql`UPDATE memories m SET embedding_status = 'ready', embedding_error = NULL, embedding_model = ${model},
            embedding_claimed_by = NULL, embedding_claimed_until = NULL
          FROM ${refValues(items)}
          WHERE ${refMatch} AND m.embedding_status = 'pending'
          RETURNING m.id, m.revision AS rev`,
    );
    const keep = new Set(ready.map((r) => r.id));
    await insertVectors(
      tx as unknown as Db,
      model,
      items.filter((i) => keep.has(i.memoryId)),
    );
    return ready.length;
  });
}

/** Stores importance scores for rows still pending at the given revision. */
export async function storeScores(
  db: Db,
  source: string,
  items: readonly (MemoryRef & { score: number })[],
): Promise<number> {
  if (items.length === 0) return 0;
  const values = sql.join(
    items.map(
      (i) => sql`(${i.agentId}::text, ${i.memoryId}::text, ${i.revision}::int, ${i.score}::smallint)`,
    ),
    sql`, `,
  );
  const rows = await queryRows<{ id: string }>(
    db,
    sql`UPDATE memories m SET importance = x.score, importance_status = 'ready', importance_error = NULL,
          importance_source = ${source}, importance_claimed_by = NULL, importance_claimed_until = NULL
        FROM (VALUES ${values}) AS x(agent, id, rev, score)
        WHERE ${refMatch} AND m.importance_status = 'pending'
        RETURNING m.id`,
  );
  return rows.length;
}

/**
 * Records an unusable importance reply: counts the attempt and keeps the reason; at
 * `maxInvalid` attempts the row is `failed`. Returns the ids still pending (to retry).
 */
export async function recordInvalid(
  db: Db,
  items: readonly (MemoryRef & { error: string })[],
  maxInvalid: number,
): Promise<string[]> {
  if (items.length === 0) return [];
  const values = sql.join(
    items.map((i) => sql`(${i.agentId}::text, ${i.memoryId}::text, ${i.revision}::int, ${i.error}::text)`),
    sql`, `,
  );
  const rows = await queryRows<{ id: string; status: string }>(
    db,
    sql`UPDATE memories m SET attempts = m.attempts + 1, importance_error = x.err,
          importance_status = CASE WHEN m.attempts + 1 >= ${maxInvalid}::int THEN 'failed' ELSE 'pending' END
        FROM (VALUES ${values}) AS x(agent, id, rev, err)
        WHERE ${refMatch} AND m.importance_status = 'pending'
        RETURNING m.id, m.importance_status AS status`,
  );
  return rows.filter((r) => r.status === "pending").map((r) => r.id);
}
