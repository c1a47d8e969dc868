import { describe, expect, it } from "vitest";
import { withEmbeddingCache } from "../../src/providers/embedding-cache";
import { createOfflineEmbedder } from "../../src/providers/offline-embedder";

describe("embedding cache", () => {
  it("answers repeated texts without calling the model again, in order, and evicts the least recently used", async () => {
    const model = await createOfflineEmbedder();
    let calls = 0;
    let texts = 0;
    const counting = {
      ...model,
      modelId: model.modelId,
      dimensions: model.dimensions,
      maxBatchSize: model.maxBatchSize,
      embed: async (t: string[]) => {
        calls++;
        texts += t.length;
        return model.embed(t);
      },
    };
    const cached = withEmbeddingCache(counting, 2);
    const [a, b] = await cached.embed(["the build failed", "lunch was good"]);
    expect(calls).toBe(1);
    const again = await cached.embed(["lunch was good", "the build failed", "lunch was good"]);
    expect(calls).toBe(1);
    expect(again).toEqual([b, a, b]);
    expect(cached.hits()).toBe(3);
    // Order of use: lunch, build, lunch → the least recently used is "the build failed".
    await cached.embed(["a new memory"]);
    expect(texts).toBe(3);
    await cached.embed(["lunch was good"]);
    expect(texts).toBe(3);
    await cached.embed(["the build failed"]);
    expect(texts).toBe(4);
    expect(cached.modelId).toBe("use-lite-512");
  });
});
