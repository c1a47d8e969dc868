import pgvector from "pgvector";
import { queryRows } from "../../db/client";
import { Invalid } from "../../lib/errors";
import { withCitationStatus } from "../citation-status";
import { resolveEmbeddingModel } from "../create-memories";
import type { MemoryDeps } from "../deps";
import type { MemoryFilters } from "../list-memories";
import { type MemoryRecord, toMemory } from "../serialize";
import type { ScoredMemory } from "../types";
import { exactRankQuery, type RankParams } from "./exact-query";

export type RetrieveInput = {
  /** The agent's current situation, embedded with the configured embedder. */
  query?: string;
  /** A vector the caller already has (skips embedding the query). */
  queryEmbedding?: number[];
  /** Model of `queryEmbedding`; defaults to the configured embedder's model. */
  embeddingModel?: string;
  k?: number;
  weights?: { recency?: number; importance?: number; relevance?: number };
  decay?: number;
  /** ISO 8601 "now" for recency (simulated time); defaults to the clock. */
  now?: string;
  /** Mark returned memories as accessed now (the paper's behaviour). */
  touch?: boolean;
  kinds?: MemoryFilters["kinds"];
  filters?: Omit<MemoryFilters, "kinds">;
};

export const RETRIEVE_DEFAULTS = {
  k: 10,
  decay: 0.99,
  weights: { recency: 1, importance: 1, relevance: 1 },
  touch: true,
} as const;

type Row = MemoryRecord & { score: number; sRecency: number; sImportance: number; sRelevance: number };

/**
 * Ranks the agent's memories by weighted, min-max scaled recency, importance and relevance
 * (Park et al. 2023), in Postgres, and touches what it returns.
 */
export async function retrieve(
  deps: MemoryDeps,
  agentId: string,
  input: RetrieveInput,
): Promise<ScoredMemory[]> {
  const params: RankParams = {
    agentId,
    filters: { ...input.filters, kinds: input.kinds },
    query: await queryVector(deps, input),
    now: input.now ? new Date(input.now) : deps.clock.now(),
    decay: input.decay ?? RETRIEVE_DEFAULTS.decay,
    weights: { ...RETRIEVE_DEFAULTS.weights, ...input.weights },
    k: input.k ?? RETRIEVE_DEFAULTS.k,
    touch: input.touch ?? RETRIEVE_DEFAULTS.touch,
  };
  const rows = await queryRows<Row>(deps.db, exactRankQuery(params));
  const ranked = rows.map((r) => ({
    ...toMemory(r),
    score: Number(r.score),
    scores: {
      recency: Number(r.sRecency),
      importance: Number(r.sImportance),
      relevance: Number(r.sRelevance),
    },
  }));
  return withCitationStatus(deps.db, agentId, ranked);
}

async function queryVector(deps: MemoryDeps, input: RetrieveInput): Promise<RankParams["query"]> {
  if (input.queryEmbedding) {
    const model = resolveEmbeddingModel(deps, input.queryEmbedding, input.embeddingModel, "queryEmbedding");
    return { vector: pgvector.toSql(input.queryEmbedding), model, dimensions: input.queryEmbedding.length };
  }
  if (input.query === undefined || input.query.trim() === "") return null;
  if (input.embeddingModel && input.embeddingModel !== deps.embedder.modelId) {
    throw new Invalid(
      `embeddingModel ${input.embeddingModel} is not the configured model (${deps.embedder.modelId}); pass queryEmbedding computed with it`,
      { field: "embeddingModel" },
    );
  }
  const [vector] = await deps.embedder.embed([input.query]);
  if (!vector) throw new Error("embedder returned no vector for the query");
  return { vector: pgvector.toSql(vector), model: deps.embedder.modelId, dimensions: vector.length };
}
