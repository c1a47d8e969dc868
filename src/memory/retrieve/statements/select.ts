import { type SQL, sql } from "drizzle-orm";
import { isoUtc } from "../../../db/iso";
import { FIELDS, target } from "../../enrichment/fields";
import type { QueryVector } from "../ranking/relevance/kinds";
import { scaledColumnsSql, scoreOfColumnsSql } from "../ranking/score";
import { liftedCte, replacedCte, VERSION_TOP, type VersionLift } from "../ranking/versions";
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
      SELECT id, recency, importance, relevance, raw_relevance, ${scoreOfColumnsSql(p.weights)} AS score
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
 * max(k, VERSION_TOP) as `ranked`, the best VERSION_TOP of them lifted, with a `newer` lift the
 * replacements of superseded ones among them added and raised, then the top k by the lifted
 * score; equal scores: memories replaced by a candidate last, then newest first. Rows carry
 * `sLift`, the score each one gained, and `superseded`, whether it ranks below its replacement.
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
      SELECT id, recency, importance, relevance, raw_relevance, ${scoreOfColumnsSql(p.weights)} AS base
      FROM scaled
      ORDER BY base DESC, id COLLATE "C"
      LIMIT ${Math.max(p.k, VERSION_TOP)}
    ),
    ${liftedCte(p, "ranked")}
    ${replacedCte(p)}
    pool AS (
      SELECT id, recency, importance, relevance, raw_relevance, base FROM ranked
      UNION ALL
      SELECT s.id, s.recency, s.importance, s.relevance, s.raw_relevance, ${scoreOfColumnsSql(p.weights, "s")}
      FROM (
        -- From cand, not scaled: scaled stays inlined into ranked (one reference), and cand is
        -- read only when some replacement exists (a one-time filter).
        SELECT c.id, ${scaledColumnsSql("c", "b")} FROM cand c CROSS JOIN b
        WHERE (SELECT count(*) FROM replaced) > 0 AND c.id IN (SELECT id FROM replaced)
      ) s
      WHERE NOT EXISTS (SELECT 1 FROM ranked r WHERE r.id = s.id)
    ),
    top AS (
      SELECT r.id, r.recency, r.importance, r.relevance, r.raw_relevance,
        greatest(r.base, l.score, x.score) AS score,
        greatest(r.base, l.score, x.score) - r.base AS lift,
        EXISTS (SELECT 1 FROM repl WHERE repl.old = r.id) AS superseded, m.created_at
      FROM pool r LEFT JOIN lifted l ON l.id = r.id LEFT JOIN replaced x ON x.id = r.id
      JOIN memories m ON m.agent_id = ${p.agentId} AND m.id = r.id
      ORDER BY score DESC, superseded, m.created_at DESC, r.id COLLATE "C"
      LIMIT ${p.k}
    )
    SELECT ${memoryColumns}, ${rankedColumns}, top.lift AS "sLift", top.superseded,
      (SELECT n FROM b) AS candidates
    FROM top JOIN memories m ON m.agent_id = ${p.agentId} AND m.id = top.id
    ORDER BY top.score DESC, top.superseded, top.created_at DESC, top.id COLLATE "C"`;
}

/** A ranked row's score and scaled components (`top`), as retrieve reads them. */
export const rankedColumns = sql`top.score, top.recency AS "sRecency", top.importance AS "sImportance", top.relevance AS "sRelevance", top.raw_relevance AS "rawRelevance"`;

/** The columns of a ranked memory row (alias `m`), as `MemoryRecord` reads them. */
export const memoryColumns = sql`m.id, m.agent_id AS "agentId", m.kind, m.description,
      ${isoUtc(sql`m.created_at`)} AS "createdAt",
      ${isoUtc(sql`m.last_accessed_at`)} AS "lastAccessedAt",
      m.importance, m.importance_source AS "importanceSource", m.${target(imp.status)} AS "importanceStatus", m.${target(imp.error)} AS "importanceError",
      m.${target(emb.status)} AS "embeddingStatus", m.${target(emb.error)} AS "embeddingError",
      m.embedding_model AS "embeddingModel", m.metadata, m.citations,
      m.superseded_by AS "supersededBy", ${isoUtc(sql`m.valid_until`)} AS "validUntil",
      ${isoUtc(sql`m.expires_at`)} AS "expiresAt"`;
