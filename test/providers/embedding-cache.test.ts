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

describe("embedding cache, calls in flight", () => {
  /** An embedder whose calls finish only when released, counting the texts it embeds. */
  const gated = () => {
    const released: (() => void)[] = [];
    const seen: string[] = [];
    const inner = {
      modelId: "gated",
      dimensions: 1,
      maxBatchSize: 64,
      embed: async (t: string[]) => {
        seen.push(...t);
        await new Promise<void>((r) => released.push(r));
        if (t.includes("fails")) throw new Error("provider down");
        return t.map((x) => [x.length]);
      },
    };
    const release = () => {
      for (const r of released.splice(0)) r();
    };
    return { inner, seen, release };
  };

  it("joins a text another call is embedding instead of embedding it again", async () => {
    const g = gated();
    const cached = withEmbeddingCache(g.inner);
    const first = cached.embed(["new memory", "other"]);
    const second = cached.embed(["new memory", "third"]);
    await new Promise((r) => setTimeout(r, 10));
    g.release();
    await new Promise((r) => setTimeout(r, 10));
    g.release();
    expect(await first).toEqual([[10], [5]]);
    expect(await second).toEqual([[10], [5]]);
    // "new memory" went to the model once; the second call embedded only "third".
    expect(g.seen).toEqual(["new memory", "other", "third"]);
    expect(cached.hits()).toBe(1);
  });

  it("passes a failure on to the calls that joined, and embeds the text afresh afterwards", async () => {
    const g = gated();
    const cached = withEmbeddingCache(g.inner);
    const owner = cached.embed(["fails", "x"]);
    const joined = cached.embed(["x"]);
    await new Promise((r) => setTimeout(r, 10));
    g.release();
    await expect(owner).rejects.toThrow("provider down");
    await expect(joined).rejects.toThrow("provider down");
    const again = cached.embed(["x"]);
    await new Promise((r) => setTimeout(r, 10));
    g.release();
    expect(await again).toEqual([[1]]);
    expect(g.seen).toEqual(["fails", "x", "x"]);
  });
});
