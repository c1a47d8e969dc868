import { sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client";
import { insertVectors } from "../memory/enrichment/store";
import type { Embedder } from "../providers/types";

export type BackfillProgress = { done: number; total: number; lastId: string | null };

type Row = { id: string; agentId: string; revision: number; description: string };

/** Memories lacking a current vector of `model` (none, or one from an older revision). */
const lacking = (model: string, agentId: string | null) =>
  sql`NOT EXISTS (SELECT 1 FROM memory_embeddings e WHERE e.agent_id = m.agent_id AND e.memory_id = m.id AND e.model = ${model} AND e.revision = m.revision)
      ${agentId === null ? sql`` : sql`AND m.agent_id = ${agentId}`}`;

/**
 * Embeds every memory lacking a vector of `embedder.modelId`, `batch` at a time, keyset-paginated
 * by id. Vectors of other models are untouched and keep serving retrieval meanwhile. Resumable
 * by construction: a rerun skips what is done, and `after` starts past a known id. Memory rows
 * (status, `embedding_model`) are not changed: they describe the configured model.
 */
export async function backfillEmbeddings(opts: {
  db: Db;
  embedder: Embedder;
  agentId: string | null;
  batch: number;
  after?: string;
  onProgress?: (p: BackfillProgress) => void;
}): Promise<BackfillProgress> {
  const model = opts.embedder.modelId;
  const [count] = await queryRows<{ n: number }>(
    opts.db,
    sql`SELECT count(*)::int AS n FROM memories m WHERE ${lacking(model, opts.agentId)} AND m.id > ${opts.after ?? ""}`,
  );
  const progress: BackfillProgress = { done: 0, total: Number(count?.n ?? 0), lastId: opts.after ?? null };
  opts.onProgress?.(progress);
  for (;;) {
    const rows = await queryRows<Row>(
      opts.db,
      sql`SELECT m.id, m.agent_id AS "agentId", m.revision, m.description FROM memories m
          WHERE m.id > ${progress.lastId ?? ""} AND ${lacking(model, opts.agentId)}
          ORDER BY m.id LIMIT ${opts.batch}`,
    );
    if (rows.length === 0) return progress;
    const vectors = await opts.embedder.embed(rows.map((r) => r.description));
    await insertVectors(
      opts.db,
      model,
      rows.map((r, i) => ({
        memoryId: r.id,
        revision: r.revision,
        agentId: r.agentId,
        vector: vectors[i] ?? [],
      })),
    );
    progress.done += rows.length;
    progress.lastId = rows.at(-1)?.id ?? progress.lastId;
    opts.onProgress?.(progress);
  }
}
