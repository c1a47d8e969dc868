import { beforeAll, describe, expect, it } from "vitest";
import { createOfflineEmbedder } from "../../src/providers/offline-embedder.js";
import type { Embedder } from "../../src/providers/types.js";
import { cosine } from "../../src/providers/vector.js";

// One model load for the whole file; it is the slow part.
let embedder: Embedder;
beforeAll(async () => {
  embedder = await createOfflineEmbedder();
  await embedder.embed(["warm up"]);
});

describe("offline embedder (USE lite)", () => {
  it("describes itself", () => {
    expect(embedder.modelId).toBe("use-lite-512");
    expect(embedder.dimensions).toBe(512);
    expect(embedder.maxBatchSize).toBe(64);
  });

  it("gives one 512-d unit vector per text, in order", async () => {
    const texts = ["the cat sat on the mat", "quarterly revenue grew", "the cat sat on the mat"];
    const vs = await embedder.embed(texts);
    expect(vs).toHaveLength(3);
    for (const v of vs) {
      expect(v).toHaveLength(512);
      expect(Math.hypot(...v)).toBeCloseTo(1, 3);
    }
    expect(cosine(vs[0] as number[], vs[2] as number[])).toBeCloseTo(1, 5);
  });

  // Plain paraphrases: USE lite knows little jargon ("CI is red" sits as far from "build failed" as breakfast does).
  it("puts similar sentences closer than unrelated ones", async () => {
    const [a, b, c] = (await embedder.embed([
      "The build failed on the main branch",
      "The main branch build is failing after the last merge",
      "I had pancakes for breakfast",
    ])) as [number[], number[], number[]];
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.1);
  });

  it("embeds empty and whitespace-only text without throwing", async () => {
    const [empty, blank, word] = (await embedder.embed(["", "  \n ", "hello"])) as [
      number[],
      number[],
      number[],
    ];
    expect(empty).toHaveLength(512);
    expect(empty).toEqual(blank);
    expect(Math.hypot(...empty)).toBeGreaterThan(0.5);
    expect(word).not.toEqual(empty);
  });

  it("splits inputs larger than one batch and keeps order", async () => {
    const texts = Array.from(
      { length: 150 },
      (_, i) => `note ${i}: ${i % 2 ? "weather report" : "bug triage"}`,
    );
    const all = await embedder.embed(texts);
    const [last] = await embedder.embed([texts[149] as string]);
    expect(all).toHaveLength(150);
    expect(cosine(all[149] as number[], last as number[])).toBeCloseTo(1, 4);
  });

  it("returns nothing for no texts", async () => {
    expect(await embedder.embed([])).toEqual([]);
  });
});
