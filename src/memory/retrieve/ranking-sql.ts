import { type SQL, sql } from "drizzle-orm";
import { isoUtc } from "../../db/iso";
import { FIELDS, target } from "../enrichment/fields";
import type { MemoryFilters } from "../filters";
import type { FreshVector } from "./agent-state";
import { RECENCY_UNITS, type RecencyUnit } from "./presets";
import type { LexicalQuery } from "./relevance";

// The ranking SQL shared by the exact and fast queries: parameters, raw recency, min-max scaling
// and the weighted top-k tail.

const imp = FIELDS.importance;
const emb = FIELDS.embedding;

export type RankParams = {
  agentId: string;
  filters: MemoryFilters;
  /** Query vector as pgvector text (`[0.1,0.2,...]`), its model and dimension; null = no relevance. */
  query: { vector: string; model: string; dimensions: number } | null;
  /** Vectors embedded at retrieve time for candidates without one (read your own writes). */
  fresh?: FreshVector[];
  /** Lexical or hybrid relevance (exact mode only); absent = vector relevance, the paper's. */
  lexical?: LexicalQuery;
  /**
   * From a time expression in the query (time-window.ts): only memories created in [start, end)
   * are candidates, unless none of the filtered memories is. Exact path only.
   */
  timeWindow?: { start: Date; end: Date } | null;
  now: Date;
  decay: number;
  /** The time unit `decay` applies per; absent = hour (the paper's). */
  recencyUnit?: RecencyUnit;
  weights: { recency: number; importance: number; relevance: number };
  k: number;
  touch: boolean;
  /**
   * Rank per section (sections-sql.ts): each memory goes to the section listing its kind
   * (`kinds` null = every kind no section lists), and each section keeps its own top `k`.
   */
  sections?: RankSection[];
  /**
   * The agent has fewer memories than the threshold statement's size gate (exact-topk.ts
   * MIN_STREAM), as the agent-state read counted them: rank every memory directly.
   */
  smallStream?: boolean;
};

/** One section of a sectioned ranking: its kinds (null = the rest) and how many it keeps. */
export type RankSection = { kinds: string[] | null; k: number };

/**
 * The raw recency of a last-access column: decay^(units since access, ≥ 0), all in float8.
 * `date_part` returns float8; `extract` returns numeric since PG14, and numeric arithmetic
 * on every row cost ~45 ms per 100k memories. The two differ by at most one ulp.
 * Postgres raises on float8 underflow instead of rounding to 0 (0.99^h does past ~8 years), so
 * the units are capped where decay^units reaches e^-600: older memories tie at that floor.
 */
export function recencyOf(p: Pick<RankParams, "decay" | "now" | "recencyUnit">, column: SQL): SQL {
  const unit = sql.raw(String(RECENCY_UNITS[p.recencyUnit ?? "hour"]));
  return sql`power(${p.decay}::float8, least(greatest(date_part('epoch', ${p.now.toISOString()}::timestamptz - ${column}) / ${unit}, 0), ${maxRecencyUnits(p.decay)}::float8))`;
}

/** Units after which decay^units would fall below e^-600 (no cap for decay 1). */
export function maxRecencyUnits(decay: number): number {
  return decay < 1 ? RECENCY_FLOOR_EXPONENT / -Math.log(decay) : Number.MAX_VALUE;
}
const RECENCY_FLOOR_EXPONENT = 600;

/** Whether filters or a time window narrow the candidates below the agent's whole stream. */
export const narrowed = (p: Pick<RankParams, "filters" | "timeWindow">): boolean =>
  Object.values(p.filters).some((v) => v !== undefined) || Boolean(p.timeWindow);

/**
 * The time window as a `tw` CTE and a condition on `memories`: inside the window, or anywhere
 * when no memory passing `where` is inside (a question about a quiet week still gets an answer).
 * Both are evaluated in the ranking statement itself; `tw` is computed once (an InitPlan).
 */
export function timeWindowSql(
  window: RankParams["timeWindow"],
  where: SQL | undefined,
): { cte: SQL; cond: SQL | undefined } {
  if (!window) return { cte: sql``, cond: undefined };
  const inside = sql`memories.created_at >= ${window.start.toISOString()}::timestamptz AND memories.created_at < ${window.end.toISOString()}::timestamptz`;
  return {
    cte: sql`tw AS (SELECT EXISTS (SELECT 1 FROM memories WHERE ${where} AND ${inside}) AS hit),`,
    cond: sql`(NOT (SELECT hit FROM tw) OR (${inside}))`,
  };
}

export const scale = (col: string, lo: string, hi: string, missing: number) =>
  sql.raw(`CASE WHEN c.${col} IS NULL THEN ${missing} WHEN b.${hi} > b.${lo}
      THEN (c.${col} - b.${lo}) / (b.${hi} - b.${lo}) ELSE 0.5 END`);

/**
 * The scoring tail shared by the exact and fast queries: given CTEs `cand` (id, rec, imp, rel
 * raw values) and `b` (their bounds, and `n`: how many candidates were scored), scales, weights,
 * takes the top k and reads the rows. `extraColumns` (each starting with a comma) are appended to
 * every row, e.g. a stopping test.
 */
export function scoreAndSelect(p: Pick<RankParams, "weights" | "k" | "agentId">, extraColumns = sql``): SQL {
  return sql`
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
    SELECT ${memoryColumns},
      top.score, top.recency AS "sRecency", top.importance AS "sImportance", top.relevance AS "sRelevance",
      (SELECT n FROM b) AS candidates ${extraColumns}
    FROM top JOIN memories m ON m.agent_id = ${p.agentId} AND m.id = top.id
    ORDER BY top.score DESC, top.id COLLATE "C"`;
}

/** The columns of a ranked memory row (alias `m`), as `MemoryRecord` reads them. */
export const memoryColumns = sql`m.id, m.agent_id AS "agentId", m.kind, m.description,
      ${isoUtc(sql`m.created_at`)} AS "createdAt",
      ${isoUtc(sql`m.last_accessed_at`)} AS "lastAccessedAt",
      m.importance, m.${target(imp.status)} AS "importanceStatus", m.${target(imp.error)} AS "importanceError",
      m.${target(emb.status)} AS "embeddingStatus", m.${target(emb.error)} AS "embeddingError",
      m.embedding_model AS "embeddingModel", m.metadata, m.citations`;
