import { describe, expect, it } from "vitest";
import { fitToBudget } from "../../../src/memory/context/fit.js";
import { formatContext } from "../../../src/memory/context/format.js";
import { createTokenCounter } from "../../../src/memory/context/tokens.js";
import type { ScoredMemory } from "../../../src/memory/types.js";
import { memory } from "../support/memories.js";

const count = createTokenCounter("o200k_base");

const scored = (id: string, description: string, score: number): ScoredMemory => ({
  ...memory({ id, description }),
  score,
  scores: { recency: score, importance: score, relevance: score, lift: 0, subject: 0, similarity: null },
  duplicates: 0,
});

const ranked: ScoredMemory[] = [
  scored("a", "Klaus Mueller is writing a research paper on gentrification", 0.9),
  scored("b", "Klaus ate lunch with Maria at Hobbs Cafe and talked about music for a long while", 0.8),
  scored("c", "Short", 0.7),
  scored("d", "Maria Lopez is studying for a physics exam", 0.6),
];

/** Token count of the block for the first k ranked memories. */
const blockTokens = (k: number) => count(formatContext(ranked.slice(0, k)));

describe("fitToBudget", () => {
  it("returns tokens equal to the count of the returned block", () => {
    for (let budget = 0; budget <= blockTokens(4) + 2; budget++) {
      const fit = fitToBudget(ranked, budget, count);
      expect(fit.tokens).toBe(count(formatContext(fit.memories)));
      expect(fit.tokens).toBeLessThanOrEqual(budget);
    }
  });

  it("includes a memory when the budget equals its block exactly, excludes it one token below", () => {
    for (let k = 1; k <= ranked.length; k++) {
      const exact = fitToBudget(ranked, blockTokens(k), count);
      expect(exact.memories.map((m) => m.id)).toEqual(ranked.slice(0, k).map((m) => m.id));
      expect(exact.tokens).toBe(blockTokens(k));
      expect(exact.truncated).toBe(k < ranked.length);

      const below = fitToBudget(ranked, blockTokens(k) - 1, count);
      expect(below.memories).toHaveLength(k - 1);
      expect(below.tokens).toBe(blockTokens(k - 1));
      expect(below.truncated).toBe(true);
    }
  });

  it("returns nothing, 0 tokens, when even the header and first line do not fit", () => {
    expect(fitToBudget(ranked, 5, count)).toEqual({ memories: [], tokens: 0, truncated: true });
    expect(fitToBudget(ranked, 0, count)).toEqual({ memories: [], tokens: 0, truncated: true });
    expect(fitToBudget([], 0, count)).toEqual({ memories: [], tokens: 0, truncated: false });
  });

  it("stops at the first memory that does not fit, even if a later one would", () => {
    // Enough for a and the short c, but not for b: c must not jump ahead of b.
    const budget = count(formatContext([ranked[0], ranked[2]].filter((m) => m !== undefined)));
    expect(budget).toBeLessThan(blockTokens(2));
    const fit = fitToBudget(ranked, budget, count);
    expect(fit.memories.map((m) => m.id)).toEqual(["a"]);
    expect(fit.truncated).toBe(true);
  });

  it("keeps the scored type and takes everything under a large budget", () => {
    const fit = fitToBudget(ranked, 10_000, count);
    expect(fit.memories.map((m) => m.score)).toEqual([0.9, 0.8, 0.7, 0.6]);
    expect(fit).toMatchObject({ tokens: blockTokens(4), truncated: false });
  });

  it("rejects a negative or fractional budget naming the field", () => {
    expect(() => fitToBudget(ranked, -1, count)).toThrow(/maxTokens/);
    expect(() => fitToBudget(ranked, 1.5, count)).toThrow(/maxTokens/);
  });

  it("works with any counter, e.g. characters", () => {
    const chars = (s: string) => s.length;
    const fit = fitToBudget(ranked, formatContext(ranked.slice(0, 2)).length, chars);
    expect(fit.memories.map((m) => m.id)).toEqual(["a", "b"]);
  });
});
