import { type SQL, sql } from "drizzle-orm";
import { isoUtc } from "../../../db/iso";
import { FIELDS, target } from "../../enrichment/fields";
import type { QueryVector } from "../ranking/relevance/kinds";
import { scaledColumnsSql, scoreOfColumnsSql } from "../ranking/score";
import { liftedCte, VERSION_TOP, type VersionLift } from "../ranking/versions";
import type { RankParams } from "./params";

const imp = FIELDS.importance;
const emb = FIELDS.embedding;

/**
 * The scoring tail of the full, threshold and fast statements: given CTEs `cand` (id and the raw
 * rec, imp, rel) and `b` (their bounds, ranking/scale.ts's columns, and `n`: how many candidates
 * were scored), scales, weights, takes the top k and reads the rows. `extraColumns` (each starting
 * with a comma) are appended to every row, e.g. a stopping test.
 */
export function scoreAndSelect(p: Pick<RankParams, "weights" | "k" | "agentId">, extraColumns = sql``): SQL {
  return sql`
    scaled AS (
      SELECT c.id, ${scaledColumnsSql("c", "b")}
      FROM cand c CROSS JOIN b
    ),
    top AS (
      SELECT id, recency, importance, relevance, ${scoreOfColumnsSql(p.weights)} AS score
      FROM scaled
      ORDER BY score DESC, id COLLATE "C"
      LIMIT ${p.k}
    )
    SELECT ${memoryColumns}, ${rankedColumns},
      (SELECT n FROM b) AS candidates ${extraColumns}
    FROM top JOIN memories m ON m.agent_id = ${p.agentId} AND m.id = top.id
    ORDER BY top.score DESC, top.id COLLATE "C"`;
}

/**
 * The full statement's tail when versions are lifted (ranking/versions.ts): the formula's best
 * max(k, VERSION_TOP) as `ranked`, the best VERSION_TOP of them lifted, then the top k by the
 * lifted score, equal scores newest first. Rows carry `sLift`, the score each one gained.
 */
export function scoreLiftAndSelect(
  p: Pick<RankParams, "weights" | "k" | "agentId" | "fresh"> & { query: QueryVector; lift: VersionLift },
): SQL {
  return sql`
    scaled AS (
      SELECT c.id, ${scaledColumnsSql("c", "b")}
      FROM cand c CROSS JOIN b
    ),
    ranked AS MATERIALIZED (
      SELECT id, recency, importance, relevance, ${scoreOfColumnsSql(p.weights)} AS base
      FROM scaled
      ORDER BY base DESC, id COLLATE "C"
      LIMIT ${Math.max(p.k, VERSION_TOP)}
    ),
    ${liftedCte(p, "ranked")}
    top AS (
      SELECT r.id, r.recency, r.importance, r.relevance, coalesce(l.score, r.base) AS score,
        coalesce(l.score, r.base) - r.base AS lift, m.created_at
      FROM ranked r LEFT JOIN lifted l ON l.id = r.id
      JOIN memories m ON m.agent_id = ${p.agentId} AND m.id = r.id
      ORDER BY score DESC, m.created_at DESC, r.id COLLATE "C"
      LIMIT ${p.k}
    )
    SELECT ${memoryColumns}, ${rankedColumns}, top.lift AS "sLift",
      (SELECT n FROM b) AS candidates
    FROM top JOIN memories m ON m.agent_id = ${p.agentId} AND m.id = top.id
    ORDER BY top.score DESC, top.created_at DESC, top.id COLLATE "C"`;
}

/** A ranked row's score and scaled components (`top`), as retrieve reads them. */
export const rankedColumns = sql`top.score, top.recency AS "sRecency", top.importance AS "sImportance", top.relevance AS "sRelevance"`;

/** The columns of a ranked memory row (alias `m`), as `MemoryRecord` reads them. */
export const memoryColumns = sql`m.id, m.agent_id AS "agentId", m.kind, m.description,
      ${isoUtc(sql`m.created_at`)} AS "createdAt",
      ${isoUtc(sql`m.last_accessed_at`)} AS "lastAccessedAt",
      m.importance, m.${target(imp.status)} AS "importanceStatus", m.${target(imp.error)} AS "importanceError",
      m.${target(emb.status)} AS "embeddingStatus", m.${target(emb.error)} AS "embeddingError",
      m.embedding_model AS "embeddingModel", m.metadata, m.citations,
      m.superseded_by AS "supersededBy", ${isoUtc(sql`m.valid_until`)} AS "validUntil"`;
