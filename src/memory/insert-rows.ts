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
  /** From when it is to be checked for supersession (its vector is given); absent or null = not to be. */
  supersessionDueAt?: Date | null;
};

/**
 * Writes a batch of memories and their supplied vectors, whatever the batch size, in few
 * statements: the rows travel as JSON parameters (`jsonb_to_recordset`) of at most
 * STATEMENT_TEXT_CHARS each (one for most batches); the vectors by binary COPY on Postgres
 * (copy-vectors.ts), else as text parameters of that size split server-side.
 * Row-by-row parameters cost ~20 bind parameters per memory (chunks of 250 for the 65,535
 * limit) and 512 boxed numbers per vector through the query builder (docs/adr/0003).
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
  const at = now.toISOString();
  for (const json of jsonChunks(rows, rowJson)) {
    await db.execute(sql`
    INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at, inserted_at,
      updated_at, importance, ${target(FIELDS.importance.status)}, importance_source,
      ${target(FIELDS.embedding.status)}, embedding_model,
      metadata, citations, prompt_version, expires_at, supersession_due_at)
    SELECT x.id, ${agentId}, x.kind, x.description, x.created_at, x.created_at, ${at}::timestamptz,
      ${at}::timestamptz, x.importance,
      CASE WHEN x.importance IS NULL THEN 'pending' ELSE 'ready' END, x.importance_source,
      CASE WHEN x.embedding_model IS NULL THEN 'pending' ELSE 'ready' END, x.embedding_model,
      x.metadata, ARRAY(SELECT jsonb_array_elements_text(x.citations)), x.prompt_version, x.expires_at,
      x.supersession_due_at
    FROM jsonb_to_recordset(${json}::jsonb) AS x(id text, kind text, description text,
      created_at timestamptz, importance smallint, importance_source text, embedding_model text,
      metadata jsonb, citations jsonb, prompt_version text, expires_at timestamptz,
      supersession_due_at timestamptz)`);
  }
  if (vectors.length === 0 || (await copyVectors(db, agentId, vectors))) return;
  // Text form: "id\tdims\t[x,y,…]" lines (neither ids nor pgvector text hold a tab or a
  // newline); a vector's model is its memory's embedding_model, written just above.
  for (const lines of textChunks(
    vectors,
    (v) => `${v.memoryId}\t${v.embedding.length}\t[${v.embedding.join(",")}]`,
    "\n",
  ))
    await db.execute(sql`
    INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
    SELECT m.id, m.agent_id, m.embedding_model, s.f[2]::int, s.f[3]::vector, 1
    FROM unnest(string_to_array(${lines}, E'\n')) AS line, string_to_array(line, E'\t') AS s(f)
    JOIN memories m ON m.agent_id = ${agentId} AND m.id = s.f[1]`);
}

/**
 * Characters of one statement's text parameter. Why: the client builds each message on the event
 * loop, and a 15 MB parameter (a batch of 1,000 memories with 15 KB of metadata) held it for
 * hundreds of milliseconds (the text, its UTF-8 copy, the message's buffers); a statement per
 * ~1 MB holds it a few ms each, and the batch is still one transaction (docs/adr/0037).
 */
export const STATEMENT_TEXT_CHARS = 1024 * 1024;

/** `items` as JSON arrays of at most STATEMENT_TEXT_CHARS each (an item over it goes alone). */
function jsonChunks<T>(items: T[], json: (item: T) => string): Generator<string> {
  return joined(items, json, ",", "[", "]");
}

/** `items` as texts joined by `separator`, at most STATEMENT_TEXT_CHARS each. */
function textChunks<T>(items: T[], text: (item: T) => string, separator: string): Generator<string> {
  return joined(items, text, separator, "", "");
}

/** Each item is serialized only when its chunk is reached, so no more than a chunk is built at once. */
function* joined<T>(
  items: T[],
  text: (item: T) => string,
  separator: string,
  open: string,
  close: string,
): Generator<string> {
  let parts: string[] = [];
  let size = 0;
  for (const item of items) {
    const part = text(item);
    if (parts.length > 0 && size + part.length > STATEMENT_TEXT_CHARS) {
      yield open + parts.join(separator) + close;
      parts = [];
      size = 0;
    }
    parts.push(part);
    size += part.length + separator.length;
  }
  if (parts.length > 0) yield open + parts.join(separator) + close;
}

/** One row as `jsonb_to_recordset` reads it. */
const rowJson = (r: InsertRow): string =>
  JSON.stringify({
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
    supersession_due_at: r.supersessionDueAt ? r.supersessionDueAt.toISOString() : null,
  });
