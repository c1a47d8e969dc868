import { Invalid } from "../lib/errors";
import type { MemoryDeps } from "./deps";

/** Checks a caller-supplied vector against its model; returns the model id to store it under. */
export function resolveEmbeddingModel(
  deps: Pick<MemoryDeps, "embedder">,
  vector: number[] | Float32Array,
  model: string | undefined,
  field: string,
): string {
  // Stored as float4: values below its range round to 0 there, so test the rounded vector.
  if (vector.every((x: number) => Math.fround(x) === 0)) {
    throw new Invalid(`${field} is all zeros: cosine similarity is undefined for it`, { field });
  }
  if (model === undefined || model === deps.embedder.modelId) {
    // dimensions 0: an OpenAI-compatible model whose size is learned from its first answer.
    if (deps.embedder.dimensions !== 0 && vector.length !== deps.embedder.dimensions) {
      throw new Invalid(
        `${field} has ${vector.length} dimensions, but the configured model ${deps.embedder.modelId} has ${deps.embedder.dimensions}; pass embeddingModel to store vectors of another model`,
        { field, expected: deps.embedder.dimensions, actual: vector.length },
      );
    }
    return deps.embedder.modelId;
  }
  return model;
}
