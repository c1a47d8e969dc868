import { and, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../db/client";
import type { Embedder } from "../../providers/types";
import { FIELDS } from "../enrichment/fields";
import { filterConditions, type MemoryFilters } from "../filters";
import { MIN_STREAM } from "./exact-topk";
import type { RankingChoice } from "./presets";

/** A memory in the candidate set that has no vector yet, as retrieve may embed it inline. */
export type PendingMemory = { id: string; description: string };

/** A vector computed at retrieve time for a pending memory, as pgvector text. */
export type FreshVector = { id: string; vector: string; dimensions: number };

/**
 * What retrieve needs to know about the agent before ranking, in one statement: its ranking
 * defaults (settings), the newest `pendingMax` memories of the candidate set still waiting
 * for a vector (a partial index holds only pending memories, so this is cheap when there are none),
 * and whether its stream is below the threshold statement's size gate (an index count that
 * stops at MIN_STREAM entries; only when `countStream`: with filters or sections the threshold
 * statement never applies, so the count would be wasted).
 */
export async function readAgentState(
  db: Db,
  agentId: string,
  filters: MemoryFilters,
  pendingMax: number,
  countStream = true,
): Promise<{ ranking: RankingChoice | null; pending: PendingMemory[]; smallStream: boolean }> {
  const where = and(...filterConditions(agentId, filters), sql`${FIELDS.embedding.status} = 'pending'`);
  const [row] = await queryRows<{
    ranking: RankingChoice | null;
    pending: PendingMemory[] | null;
    small: boolean;
  }>(
    db,
    sql`SELECT (SELECT retrieval FROM agent_settings WHERE agent_id = ${agentId}) AS ranking,
      ${countStream ? sql`(SELECT count(*) FROM (SELECT 1 FROM memories WHERE agent_id = ${agentId} LIMIT ${MIN_STREAM}) s) < ${MIN_STREAM}` : sql`false`} AS small,
      (SELECT json_agg(json_build_object('id', p.id, 'description', p.description)) FROM (
        SELECT memories.id, memories.description FROM memories WHERE ${where}
        ORDER BY memories.inserted_at DESC LIMIT ${pendingMax}
      ) p) AS pending`,
  );
  return {
    ranking: row?.ranking ?? null,
    pending: pendingMax > 0 ? (row?.pending ?? []) : [],
    smallStream: row?.small ?? false,
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
