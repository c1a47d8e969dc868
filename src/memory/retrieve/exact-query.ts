import { and, type SQL, sql } from "drizzle-orm";
import { filterConditions, type MemoryFilters } from "../list-memories";

export type RankParams = {
  agentId: string;
  filters: MemoryFilters;
  /** Query vector as pgvector text (`[0.1,0.2,...]`), its model and dimension; null = no relevance. */
  query: { vector: string; model: string; dimensions: number } | null;
  now: Date;
  decay: number;
  weights: { recency: number; importance: number; relevance: number };
  k: number;
  touch: boolean;
};

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The exact Generative Agents ranking as one statement: candidates → min/max → scaled
 * components → top k → touch. One statement is one snapshot, so a concurrent retrieve sees
 * either all of this touch or none of it.
 *
 * Rules for memories that are not fully enriched (documented in the README and OpenAPI):
 * - importance not yet scored: the scaled importance is 0.5; min/max use scored memories only.
 * - no vector of the query's model: the scaled relevance is 0 (lowest); min/max use embedded ones.
 * - a component that is equal across the candidate set (incl. a single candidate) scales to 0.5.
 * The distance is computed once per candidate (materialized CTE), not once per window.
 */
export function exactRankQuery(p: RankParams): SQL {
  const where = and(...filterConditions(p.agentId, p.filters));
  const now = p.now.toISOString();
  const relevance = p.query ? sql`1 - (e.embedding <=> ${p.query.vector}::vector)` : sql`NULL::float8`;
  const join = p.query
    ? sql`LEFT JOIN memory_embeddings e ON e.memory_id = memories.id AND e.model = ${p.query.model} AND e.dimensions = ${p.query.dimensions}`
    : sql``;
  const scale = (col: string, lo: string, hi: string, missing: number) =>
    sql.raw(`CASE WHEN c.${col} IS NULL THEN ${missing} WHEN b.${hi} > b.${lo}
      THEN (c.${col} - b.${lo}) / (b.${hi} - b.${lo}) ELSE 0.5 END`);
  const touch = p.touch
    ? sql`, touched AS (
        UPDATE memories SET last_accessed_at = greatest(memories.last_accessed_at, ${now}::timestamptz)
        FROM top WHERE memories.id = top.id
        RETURNING memories.id, memories.last_accessed_at)`
    : sql`, touched AS (SELECT NULL::text AS id, NULL::timestamptz AS last_accessed_at WHERE false)`;

  return sql`
    WITH cand AS MATERIALIZED (
      SELECT memories.id,
        power(${p.decay}::float8, greatest(extract(epoch FROM (${now}::timestamptz - memories.last_accessed_at)) / 3600.0, 0)::float8) AS rec,
        memories.importance::float8 AS imp,
        ${relevance} AS rel
      FROM memories ${join}
      WHERE ${where}
    ),
    b AS (
      SELECT min(rec) AS rlo, max(rec) AS rhi, min(imp) AS ilo, max(imp) AS ihi, min(rel) AS vlo, max(rel) AS vhi FROM cand
    ),
    scaled AS (
      SELECT c.id, ${scale("rec", "rlo", "rhi", 0)} AS recency,
        ${scale("imp", "ilo", "ihi", 0.5)} AS importance,
        ${scale("rel", "vlo", "vhi", 0)} AS relevance
      FROM cand c CROSS JOIN b
    ),
    top AS (
      SELECT id, recency, importance, relevance,
        ${p.weights.recency}::float8 * recency + ${p.weights.importance}::float8 * importance
          + ${p.weights.relevance}::float8 * relevance AS score
      FROM scaled
      ORDER BY score DESC, id COLLATE "C"
      LIMIT ${p.k}
    )
    ${touch}
    SELECT m.id, m.agent_id AS "agentId", m.kind, m.description,
      to_char(m.created_at AT TIME ZONE 'UTC', ${sql.raw(ISO)}) AS "createdAt",
      to_char(coalesce(t.last_accessed_at, m.last_accessed_at) AT TIME ZONE 'UTC', ${sql.raw(ISO)}) AS "lastAccessedAt",
      m.importance, m.importance_status AS "importanceStatus", m.importance_error AS "importanceError",
      m.embedding_status AS "embeddingStatus", m.embedding_error AS "embeddingError",
      m.embedding_model AS "embeddingModel", m.metadata, m.citations,
      top.score, top.recency AS "sRecency", top.importance AS "sImportance", top.relevance AS "sRelevance"
    FROM top JOIN memories m ON m.id = top.id LEFT JOIN touched t ON t.id = top.id
    ORDER BY top.score DESC, top.id COLLATE "C"`;
}
