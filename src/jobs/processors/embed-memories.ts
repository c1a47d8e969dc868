import { claimRows } from "../../memory/enrichment/claim";
import { markFailed } from "../../memory/enrichment/fail";
import { errorText } from "../../memory/enrichment/fields";
import { storeEmbeddings } from "../../memory/enrichment/store";
import { recordEnrichmentLag } from "../../metrics";
import { isFinalAttempt, type Processor } from "./types";

/**
 * `memories.embed`: claims the chunk's rows still pending, embeds them in one provider call
 * (the embedder splits by its own `maxBatchSize`), stores the vectors under the model id.
 * Provider faults throw so the queue backs off; on the last attempt the rows are marked failed.
 */
export const embedMemories: Processor<"memories.embed"> = async (deps, payload, ctx) => {
  const rows = await claimRows(deps.db, "embedding", payload.items, ctx.jobId, deps.claimMs);
  if (rows.length === 0) return { claimed: 0, embedded: 0 };
  let vectors: number[][];
  try {
    vectors = await deps.embedder.embed(rows.map((r) => r.description));
  } catch (err) {
    if (isFinalAttempt(ctx)) {
      const refs = rows.map((r) => ({ memoryId: r.id, revision: r.revision, agentId: r.agentId }));
      await markFailed(deps.db, "embedding", refs, ctx.jobId, errorText(err));
    }
    throw err;
  }
  const ready = await storeEmbeddings(
    deps.db,
    deps.embedder.modelId,
    rows.map((r, i) => ({
      memoryId: r.id,
      revision: r.revision,
      agentId: r.agentId,
      vector: vectors[i] ?? [],
    })),
  );
  recordEnrichmentLag(
    deps.metrics,
    "embedding",
    ready.map((r) => r.writtenAt),
    deps.reflect.clock.now(),
  );
  return { claimed: rows.length, embedded: ready.length };
};
