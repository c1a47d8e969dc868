import { beforeAll, describe, expect, it } from "vitest";
import {
  createOfflineImportanceScorer,
  marginToScore,
} from "../../src/providers/importance/offline-scorer.js";
import { createOfflineEmbedder } from "../../src/providers/offline-embedder.js";
import type { Embedder } from "../../src/providers/types.js";

let embedder: Embedder;
beforeAll(async () => {
  embedder = await createOfflineEmbedder();
});

// None of these is a built-in anchor, so they test generalisation, not recall.
const MUNDANE = [
  "washed the dishes",
  "had a cup of coffee",
  "folded the laundry",
  "took out the trash",
  "formatted the code",
];
const POIGNANT = [
  "my mother died",
  "CI failed on main and the release is blocked",
  "my father had a heart attack",
  "the company went bankrupt",
  "I got my dream job",
];

describe("offline importance scorer", () => {
  it("puts obvious mundane memories at 3 or below and poignant ones at 7 or above", async () => {
    const scorer = createOfflineImportanceScorer({ embedder });
    expect(scorer.id).toBe("offline:examples-v1");
    const scores = await scorer.score([...MUNDANE, ...POIGNANT]);
    const mundane = scores.slice(0, MUNDANE.length);
    const poignant = scores.slice(MUNDANE.length);
    for (const s of mundane) expect(s).toBeLessThanOrEqual(3);
    for (const s of poignant) expect(s).toBeGreaterThanOrEqual(7);
  });

  it("scores brushing teeth well below a death or a blocked release", async () => {
    const scorer = createOfflineImportanceScorer({ embedder });
    const [teeth, death, ci] = (await scorer.score([
      "brushed my teeth",
      "my mother died",
      "CI failed on main and the release is blocked",
    ])) as [number, number, number];
    expect(death - teeth).toBeGreaterThanOrEqual(5);
    expect(ci - teeth).toBeGreaterThanOrEqual(5);
  });

  it("bends toward the deployment's examples", async () => {
    const memory = "the nightly benchmark got 2% slower";
    const [before] = await createOfflineImportanceScorer({ embedder }).score([memory]);
    const tuned = createOfflineImportanceScorer({
      embedder,
      examples: { mundane: [], poignant: ["the benchmark regressed badly overnight"] },
    });
    const [after] = await tuned.score([memory]);
    expect(tuned.id).toBe("offline:examples-v1+0m1p");
    expect(after).toBeGreaterThan(before as number);
  });

  it("always answers an integer within 1..10", () => {
    for (const m of [-2, -0.2, -0.05, 0, 0.05, 0.2, 2]) {
      const s = marginToScore(m);
      expect(Number.isInteger(s) && s >= 1 && s <= 10).toBe(true);
    }
  });
});
