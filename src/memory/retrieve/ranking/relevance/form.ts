import { type SQL, sql } from "drizzle-orm";
import { ASKS_PATTERN, FORM_MIN, FORM_SAMPLE, type FreshVector, type QueryVector } from "./kinds";
import { freshSql } from "./vector";

/** Below this, 1 − (x·f)² counts as 0: the vector lies along the form direction (nothing else left). */
const PARALLEL = 1e-9;

/**
 * The question form of windowed relevance (kinds.ts, ASKS_PATTERN): CTEs ending in `rel_q (f,
 * qf)`, the agent's form direction (unit; NULL with fewer than FORM_MIN memories of either form)
 * and the query's component along it. The direction is the stream's (of the agent's newest
 * FORM_SAMPLE memories, those with a vector of the query's model, stored or embedded at retrieve
 * time), whatever the filters: a time window's few sessions estimate it worse. The newest are
 * read by the (agent_id, created_at, id) index before any vector is. pgvector's float4
 * arithmetic: unit vectors by l2_normalize, means by avg, the difference by `-`.
 */
export function formCtes(agentId: string, vector: QueryVector, fresh: FreshVector[]): SQL {
  const f = freshSql(fresh, "m.id");
  return sql`
    rel_form AS MATERIALIZED (
      SELECT CASE WHEN count(*) FILTER (WHERE asks) >= ${FORM_MIN}::int AND count(*) FILTER (WHERE NOT asks) >= ${FORM_MIN}::int
        THEN l2_normalize(avg(l2_normalize(v)) FILTER (WHERE asks) - avg(l2_normalize(v)) FILTER (WHERE NOT asks)) END AS f
      FROM (
        SELECT m.description ~ ${ASKS_PATTERN}::text AS asks, ${f.embedding} AS v
        FROM (
          SELECT memories.id, memories.description FROM memories WHERE memories.agent_id = ${agentId}
          ORDER BY memories.created_at DESC, memories.id DESC LIMIT ${FORM_SAMPLE}::int
        ) m
          LEFT JOIN memory_embeddings e ON e.memory_id = m.id AND e.agent_id = ${agentId}
            AND e.model = ${vector.model} AND e.dimensions = ${vector.dimensions} ${f.join}
      ) x WHERE v IS NOT NULL
    ),
    rel_q AS MATERIALIZED (
      SELECT f, -(${vector.vector}::vector <#> f) / vector_norm(${vector.vector}::vector) AS qf FROM rel_form
    ),`;
}

/** A vector expression's component along the form direction (NULL without one): d·f / |d|. */
export const formComponentSql = (embedding: SQL): SQL =>
  sql`-(${embedding} <#> (SELECT f FROM rel_q)) / vector_norm(${embedding})`;

/**
 * The cosine with the form direction projected out of both unit vectors, from `cos` and the
 * memory's component `cf` (rel_base's columns) and the query's `q.qf` (rel_q aliased `q`):
 * (cos − qf·cf) / √((1 − qf²)(1 − cf²)). The plain cosine without a direction or when the query
 * lies along it; 0 for a memory that lies along it.
 */
export const projectedCosineSql = sql`CASE
        WHEN q.qf IS NULL OR r.cos IS NULL OR 1 - q.qf * q.qf <= ${sql.raw(String(PARALLEL))} THEN r.cos
        WHEN 1 - r.cf * r.cf <= ${sql.raw(String(PARALLEL))} THEN 0::float8
        ELSE (r.cos - q.qf * r.cf) / sqrt((1 - q.qf * q.qf) * (1 - r.cf * r.cf)) END`;
