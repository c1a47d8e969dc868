import { and, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import { isoUtc } from "../../db/iso";
import type { Embedder } from "../../providers/types";
import { filterConditions, type MemoryFilters } from "../filters";
import type { FastThresholds } from "./fast-thresholds";
import { pendingSql } from "./freshness";
import { findHnswIndex, hnswIndexName } from "./hnsw-index";
import { type FastState, MIN_STREAM, WORKERS_MIN_STREAM } from "./plan";
import type { RankingChoice } from "./presets";
import type { Weights } from "./ranking/components";
import type { FreshVector, QueryVector } from "./ranking/relevance/kinds";

/** A memory in the candidate set that has no vector yet, as retrieve may embed it inline. */
export type PendingMemory = { id: string; description: string };

/**
 * What retrieve needs to know about the agent before ranking, in one statement:
 * - its ranking defaults (settings) and the weights learned from its feedback, if in use;
 * - the newest `pendingMax` memories of the candidate set still waiting for a vector (a partial
 *   index holds only pending memories, so this is cheap when there are none);
 * - when `countStream` (with filters or sections neither statement below applies, so both would
 *   be wasted): whether its stream is below the planner's gate for the threshold statement (`smallStream`,
 *   an index count that stops at MIN_STREAM entries; plan.ts);
 * - when `estimateLarge` too (a query with text, which fused relevance needs): whether the
 *   planner's statistics put the agent at `largeAt` (WORKERS_MIN_STREAM) memories or more
 *   (`largeStream`: the whole-stream fused relevance statement gets parallel workers;
 *   plan.ts). An estimate from `pg_stats` (the share of the table the agent's id holds,
 *   times the table's rows), because it only decides how fast the statement runs, never what it
 *   returns: counting 50,000 entries took ~14 ms against ~0.05 ms for the estimate. No
 *   statistics yet (never analyzed): false.
 * - the result cache's state (cache.ts): the agent's generation token and its own cache TTL.
 */
export async function readAgentState(
  db: Db,
  agentId: string,
  filters: MemoryFilters,
  pendingMax: number,
  {
    countStream = true,
    estimateLarge = countStream,
    largeAt = WORKERS_MIN_STREAM,
    learn = false,
  }: { countStream?: boolean; estimateLarge?: boolean; largeAt?: number; learn?: boolean } = {},
): Promise<{
  ranking: RankingChoice | null;
  /** Weights learned from the agent's feedback, when learning is on for it (`learn`: the deployment's default) and a fit was adopted. */
  learned: Weights | null;
  pending: PendingMemory[];
  smallStream: boolean;
  largeStream: boolean;
  /** The planner's estimate of the agent's memories (pg_stats; null: never analyzed or not asked). */
  rowsEstimate: number | null;
  /** The agent's erase count now (docs/adr/0027): the retrieve logs nothing if it changes before the log. */
  epoch: number;
  /** The agent's memories still waiting for a vector, and when the oldest was written (freshness.ts). */
  unsearchable: { count: number; oldest: Date | null };
  /** The agent's generation token (null: none, never answered from a cache) and its own cache TTL (null: the deployment's). */
  cache: { generation: string | null; ttlMs: number | null };
}> {
  const where = and(...filterConditions(agentId, filters), pendingSql);
  const [row] = await queryRows<{
    ranking: RankingChoice | null;
    learned: Weights | null;
    pending: PendingMemory[] | null;
    small: boolean;
    estimate: number | null;
    epoch: number | null;
    unsearchable: number | string | null;
    oldest_unsearchable: string | null;
    generation: string | null;
    cache_ttl: number | string | null;
  }>(
    db,
    sql`SELECT s.retrieval AS ranking, s.retrieve_cache_ttl_ms AS cache_ttl,
      (SELECT g.generation::text FROM agent_generations g WHERE g.agent_id = ${agentId}) AS generation,
      CASE WHEN coalesce(s.learn_weights, ${learn}::boolean) THEN s.learned->'weights' END AS learned,
      ${countStream ? sql`(SELECT count(*) FROM (SELECT 1 FROM memories WHERE agent_id = ${agentId} LIMIT ${MIN_STREAM}) s) < ${MIN_STREAM}` : sql`false`} AS small,
      ${countStream && estimateLarge ? sql`memstream_agent_rows_estimate(${agentId})` : sql`NULL::float8`} AS estimate,
      (SELECT json_agg(json_build_object('id', p.id, 'description', p.description)) FROM (
        SELECT memories.id, memories.description FROM memories WHERE ${where}
        ORDER BY memories.inserted_at DESC LIMIT ${pendingMax}
      ) p) AS pending,
      (SELECT e.epoch FROM agent_erasures e WHERE e.agent_id = ${agentId}) AS epoch,
      -- The freshness contract (freshness.ts): both from the partial index of pending memories.
      (SELECT count(*) FROM memories WHERE agent_id = ${agentId} AND ${pendingSql}) AS unsearchable,
      (SELECT ${isoUtc(sql`min(inserted_at)`)} FROM memories WHERE agent_id = ${agentId} AND ${pendingSql}) AS oldest_unsearchable
      FROM (SELECT 1) one LEFT JOIN agent_settings s ON s.agent_id = ${agentId}`,
  );
  return {
    ranking: row?.ranking ?? null,
    learned: row?.learned ?? null,
    pending: pendingMax > 0 ? (row?.pending ?? []) : [],
    smallStream: row?.small ?? false,
    // Not analyzed yet (no estimate): not large.
    largeStream: row?.estimate != null && Number(row.estimate) >= largeAt,
    rowsEstimate: row?.estimate == null ? null : Number(row.estimate),
    epoch: Number(row?.epoch ?? 0),
    unsearchable: {
      count: Number(row?.unsearchable ?? 0),
      oldest: row?.oldest_unsearchable ? new Date(row.oldest_unsearchable) : null,
    },
    cache: {
      generation: row?.generation ?? null,
      ttlMs: row?.cache_ttl == null ? null : Number(row.cache_ttl),
    },
  };
}

/**
 * Embeds pending memories inline so an agent that writes and at once retrieves sees what it
 * just wrote by meaning. Bounded: at most the few memories `readAgentState` returned, and
 * `timeoutMs`; past it, or if the embedder fails, they keep the documented rule (relevance 0)
 * and the enrichment pipeline embeds them as usual. Nothing is stored: the pipeline owns that.
 */
export async function embedPending(
  embedder: Embedder,
  pending: PendingMemory[],
  timeoutMs: number,
): Promise<FreshVector[]> {
  if (pending.length === 0) return [];
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    const vectors = await Promise.race([embedder.embed(pending.map((p) => p.description)), late]);
    if (!vectors) return [];
    return pending.flatMap((p, i) => {
      const v = vectors[i];
      return v ? [{ id: p.id, vector: `[${v.join(",")}]`, dimensions: v.length }] : [];
    });
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What `plan` needs for mode fast, in one statement: the query model's HNSW index (cached
 * lookup), its entries as the statistics count them (`pg_class.reltuples`, kept by CREATE INDEX,
 * VACUUM and ANALYZE), and the agent's vectors of the model (memories, without a query), counted
 * only up to what the gate needs (MEMSTREAM_FAST_MIN_STREAM, and MEMSTREAM_FAST_MIN_SHARE of
 * the index), so it reads at most that many index entries.
 */
export async function readFastState(
  db: Db,
  agentId: string,
  query: QueryVector | null,
  t: FastThresholds,
): Promise<FastState> {
  const index = query ? await findHnswIndex(db, query.model, query.dimensions) : null;
  const indexed = index
    ? sql`(SELECT greatest(reltuples, 0) FROM pg_class WHERE oid = to_regclass(${hnswIndexName(index)}))`
    : sql`0`;
  const rows = query
    ? sql`SELECT 1 FROM memory_embeddings e WHERE e.agent_id = ${agentId} AND e.model = ${query.model}
        AND e.dimensions = ${query.dimensions}`
    : sql`SELECT 1 FROM memories WHERE agent_id = ${agentId}`;
  const [row] = await queryRows<{ vectors: number | string; indexed: number | null }>(
    db,
    sql`WITH ix AS (SELECT coalesce(${indexed}, 0)::float8 AS indexed),
        need AS (SELECT greatest(${t.minStream}::int, ceil(${t.minShare}::float8 * indexed))::int AS n FROM ix)
        SELECT (SELECT count(*) FROM (${rows} LIMIT (SELECT n FROM need)) s) AS vectors, (SELECT indexed FROM ix) AS indexed`,
  );
  return { index, vectors: Number(row?.vectors ?? 0), indexed: Number(row?.indexed ?? 0) };
}
