import { sql } from "drizzle-orm";
import type { Db } from "../db/client";

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
};

/** One supplied vector: its memory and values (its model is the memory's `embeddingModel`). */
export type InsertVector = { memoryId: string; embedding: number[] };

/**
 * Writes a batch of memories and their supplied vectors in one statement, whatever the batch
 * size: the rows travel as one JSON parameter (`jsonb_to_recordset`) and the vectors as one text
 * parameter in pgvector's text form, split server-side. Row-by-row parameters cost ~20 bind
 * parameters per memory (chunks of 250 for the 65,535 limit) and 512 boxed numbers per vector
 * through the query builder, which made batches with vectors ~6× slower (docs/performance.md).
 * Statuses follow from what is supplied: given importance or vector = ready, else pending.
 */
export async function insertMemoryRows(
  db: Pick<Db, "execute">,
  agentId: string,
  now: Date,
  rows: InsertRow[],
  vectors: InsertVector[],
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
    })),
  );
  const at = now.toISOString();
  // Vectors as "id\tdims\t[x,y,…]" lines: neither ids (mem_…) nor pgvector text hold a tab or
  // a newline. A vector's model is its memory's embedding_model.
  const lines = vectors
    .map((v) => `${v.memoryId}\t${v.embedding.length}\t[${v.embedding.join(",")}]`)
    .join("\n");
  await db.execute(sql`
    WITH m AS (
      INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at, inserted_at,
        updated_at, importance, importance_status, importance_source, embedding_status, embedding_model,
        metadata, citations, prompt_version)
      SELECT x.id, ${agentId}, x.kind, x.description, x.created_at, x.created_at, ${at}::timestamptz,
        ${at}::timestamptz, x.importance,
        CASE WHEN x.importance IS NULL THEN 'pending' ELSE 'ready' END, x.importance_source,
        CASE WHEN x.embedding_model IS NULL THEN 'pending' ELSE 'ready' END, x.embedding_model,
        x.metadata, ARRAY(SELECT jsonb_array_elements_text(x.citations)), x.prompt_version
      FROM jsonb_to_recordset(${json}::jsonb) AS x(id text, kind text, description text,
        created_at timestamptz, importance smallint, importance_source text, embedding_model text,
        metadata jsonb, citations jsonb, prompt_version text)
      RETURNING id, embedding_model
    ),
    v AS (
      SELECT f[1] AS id, f[2]::int AS dims, f[3]::vector AS embedding
      FROM unnest(string_to_array(${lines}, E'\n')) AS line, string_to_array(line, E'\t') AS s(f)
    )
    INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
    SELECT v.id, ${agentId}, m.embedding_model, v.dims, v.embedding, 1 FROM v JOIN m ON m.id = v.id`);
}
