import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type CopyVector, copyVectors } from "./copy-vectors";
import { FIELDS, target } from "./enrichment/fields";

/** One memory as `insertMemoryRows` writes it (agent and timestamps are per batch). */
export type InsertRow = {
  id: string;
  kind: string;
  description: string;
  createdAt: Date;
  importance: number | null;
  importanceSource: string | null;
  embeddingModel: string | null;
  metadata: Record<string, unknown>;
  citations: string[];
  promptVersion: string | null;
  /** When it stops existing; absent or null = never. */
  expiresAt?: Date | null;
};

/**
 * Writes a batch of memories and their supplied vectors, whatever the batch size, in two
 * statements: the rows travel as one JSON parameter (`jsonb_to_recordset`); the vectors by
 * binary COPY on Postgres (copy-vectors.ts), else as one text parameter split server-side.
 * Row-by-row parameters cost ~20 bind parameters per memory (chunks of 250 for the 65,535
 * limit) and 512 boxed numbers per vector through the query builder (docs/performance-history.md).
 * Statuses follow from what is supplied: given importance or vector = ready, else pending.
 */
export async function insertMemoryRows(
  db: Pick<Db, "execute">,
  agentId: string,
  now: Date,
  rows: InsertRow[],
  vectors: CopyVector[],
): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(
    rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      description: r.description,
      created_at: r.createdAt.toISOString(),
      importance: r.importance,
      importance_source: r.importanceSource,
      embedding_model: r.embeddingModel,
      metadata: r.metadata,
      citations: r.citations,
      prompt_version: r.promptVersion,
      expires_at: r.expiresAt ? r.expiresAt.toISOString() : null,
    })),
  );
  const at = now.toISOString();
  await db.execute(sql`
    INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at, inserted_at,
      updated_at, importance, ${target(FIELDS.importance.status)}, importance_source,
      ${target(FIELDS.embedding.status)}, embedding_model,
      metadata, citations, prompt_version, expires_at)
    SELECT x.id, ${agentId}, x.kind, x.description, x.created_at, x.created_at, ${at}::timestamptz,
      ${at}::timestamptz, x.importance,
      CASE WHEN x.importance IS NULL THEN 'pending' ELSE 'ready' END, x.importance_source,
      CASE WHEN x.embedding_model IS NULL THEN 'pending' ELSE 'ready' END, x.embedding_model,
      x.metadata, ARRAY(SELECT jsonb_array_elements_text(x.citations)), x.prompt_version, x.expires_at
    FROM jsonb_to_recordset(${json}::jsonb) AS x(id text, kind text, description text,
      created_at timestamptz, importance smallint, importance_source text, embedding_model text,
      metadata jsonb, citations jsonb, prompt_version text, expires_at timestamptz)`);
  if (vectors.length === 0 || (await copyVectors(db, agentId, vectors))) return;
  // Text form: "id\tdims\t[x,y,…]" lines (neither ids nor pgvector text hold a tab or a
  // newline); a vector's model is its memory's embedding_model, written just above.
  const lines = vectors
    .map((v) => `${v.memoryId}\t${v.embedding.length}\t[${v.embedding.join(",")}]`)
    .join("\n");
  await db.execute(sql`
    INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
    SELECT m.id, m.agent_id, m.embedding_model, s.f[2]::int, s.f[3]::vector, 1
    FROM unnest(string_to_array(${lines}, E'\n')) AS line, string_to_array(line, E'\t') AS s(f)
    JOIN memories m ON m.agent_id = ${agentId} AND m.id = s.f[1]`);
}
