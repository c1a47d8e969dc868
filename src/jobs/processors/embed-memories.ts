import { claimRows } from "../../memory/enrichment/claim";
import { markFailed } from "../../memory/enrichment/fail";
import { errorText } from "../../memory/enrichment/fields";
import { storeEmbeddings } from "../../memory/enrichment/store";
import { recorded } from "../../memory/events";
import { recordEnrichmentLag } from "../../metrics";
import { isFinalAttempt, type Processor } from "./types";

/**
 * `memories.embed`: claims the chunk's rows still pending, embeds them in one provider call
 * (the embedder splits by its own `maxBatchSize`), stores the vectors under the model id.
 * Provider faults throw so the queue backs off; on the last attempt the rows are marked failed.
 */
export const embedMemories: Processor<"memories.embed"> = async (payload, ctx) => {
  const rows = await claimRows(ctx, "embedding", payload.items, ctx.job.jobId, ctx.claimMs);
  if (rows.length === 0) return { claimed: 0, embedded: 0 };
  let vectors: number[][];
  try {
    vectors = await ctx.embedder.embed(rows.map((r) => r.description));
  } catch (err) {
    if (isFinalAttempt(ctx.job)) {
      const refs = rows.map((r) => ({ memoryId: r.id, revision: r.revision, agentId: r.agentId }));
      await markFailed(ctx, "embedding", refs, ctx.job.jobId, errorText(err));
    }
    throw err;
  }
  const ready = await storeEmbeddings(
    ctx.db,
    ctx.embedder.modelId,
    rows.map((r, i) => ({
      memoryId: r.id,
      revision: r.revision,
      agentId: r.agentId,
      vector: vectors[i] ?? [],
    })),
    ctx.supersession ? { supersessionDueAt: ctx.clock.now() } : {},
  );
  // Now comparable with earlier memories: those marked are to be checked for supersession.
  const due = new Set(ready.filter((r) => r.supersessionDue).map((r) => r.id));
  const items = rows
    .filter((r) => due.has(r.id))
    .map((r) => ({ memoryId: r.id, agentId: r.agentId, revision: r.revision }));
  await ctx.announce([
    ...(items.length > 0 ? [{ kind: "memories.embedded" as const, items }] : []),
    // A memory whose last pending field this was is enriched: its outgoing event is recorded.
    ...recorded(ready.length > 0 ? rows : []),
  ]);
  recordEnrichmentLag(
    ctx.metrics,
    "embedding",
    ready.map((r) => r.writtenAt),
    ctx.clock.now(),
  );
  return { claimed: rows.length, embedded: ready.length };
};
