import { and, type SQL, sql } from "drizzle-orm";
import { filterConditions } from "../../filters";
import { relevanceSql } from "../ranking/relevance/relevance";
import type { RankParams } from "./params";
import { MOST_RELEVANT, RECENT_IMPORTANT, thresholdOver } from "./threshold";

/**
 * The exact ranking of a whole stream by fused relevance from words and a vector (`hybrid`,
 * `contextual`: the default's), with the same bounds, scores and tie order as `fullRankQuery`,
 * bit for bit. Every memory's relevance is needed (rel' is scaled by the stream's least and
 * greatest fused relevance, and a contextual relevance depends on both neighbours'; docs/adr/0024),
 * so the statement makes one pass over the stream for it, and prunes after it:
 * 1. relevance (ranking/relevance, indexed rows): every memory's id and createdAt, every cosine
 *    (the floor of the paper preset's statement too), BM25 of the memories holding a query
 *    lexeme only, read through the GIN index over (agent_id, description_tsv), with the count
 *    and average length the triggers keep (no tsvector of a memory without a query word is read);
 *    the fusion and the neighbour window over (id, rel) rows alone.
 * 2. the threshold statement's pruning (threshold.ts) with that relevance as its `d`: recency and
 *    importance bounds from btree endpoints, the recency + importance list by btree, and the
 *    memories whose relevance can still reach the k-th score. Recency and importance are computed,
 *    and `memories` read, for a few hundred memories instead of the whole stream, and only the
 *    k best rows are read in full.
 * Needs a query vector, hybrid or contextual relevance, no filter, no time window and weights
 * ≥ 0; the planner gives it streams of 50,000+ memories, where it pays (plan.ts). Windowed relevance (BM25F) needs every memory's length for its windows' and is
 * ranked by the full statement.
 */
export function fusedRankQuery(
  p: RankParams,
  { listSize = RECENT_IMPORTANT, mostRelevant = MOST_RELEVANT } = {},
): SQL {
  const { query, lexical } = p;
  if (!query || !lexical || (lexical.kind !== "hybrid" && lexical.kind !== "contextual"))
    throw new Error("fusedRankQuery needs a query vector and hybrid or contextual relevance");
  const where = and(...filterConditions(p.agentId, {}));
  const rel = relevanceSql(p.agentId, query, lexical, where, p.fresh, "indexed");
  return thresholdOver(
    p,
    {
      head: rel.ctes,
      d: sql`SELECT memories.id, memories.rel, memories.last_accessed_at, memories.importance FROM ${rel.source}`,
      listRel: { join: sql`LEFT JOIN d ON d.id = blist.id`, expr: sql`d.rel` },
      complete: true,
      carries: true,
    },
    { listSize, mostRelevant },
  );
}
