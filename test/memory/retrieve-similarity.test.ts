import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { cosine } from "../support/reference-ranking";
import { startTestSystem, type TestSystem } from "../support/system";

// scores.similarity: the unscaled cosine to the query vector, so a score means the same in every
// retrieve (scaled relevance is 0.5 for a stream of one memory, whatever the query).

const DIMS = 64;
let t: TestSystem;
const agent = uniq("similarity");
const axis = (i: number, w = 1) => Array.from({ length: DIMS }, (_, d) => (d === i ? w : d === 63 ? 0.2 : 0));
const vectors = [axis(0), axis(1), axis(0, 0.3)];
type Hit = { description: string; scores: { relevance: number; similarity: number | null } };

beforeAll(async () => {
  t = await startTestSystem();
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
    memories: [
      ...vectors.map((embedding, i) => ({
        description: `memory ${i}`,
        embedding,
        embeddingModel: "stub-embed",
      })),
      { description: "no vector yet" },
    ],
  });
  expect(res.status).toBe(201);
});
afterAll(() => t.close());

const ask = async (body: object): Promise<Hit[]> => {
  const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
    queryEmbedding: axis(0, 2),
    embeddingModel: "stub-embed",
    touch: false,
    ...body,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { memories: Hit[] }).memories;
};

describe("scores.similarity", () => {
  it("is each memory's cosine to the query vector with vector relevance, unscaled", async () => {
    const hits = await ask({ relevance: "vector" });
    const q = axis(0, 2);
    for (const [i, v] of vectors.entries()) {
      const hit = hits.find((h) => h.description === `memory ${i}`) as Hit;
      expect(hit.scores.similarity).toBeCloseTo(cosine(v, q), 6);
    }
    // Scaled relevance spans [0, 1] over the candidates; the cosine does not.
    expect(hits.find((h) => h.description === "memory 1")?.scores.similarity).toBeGreaterThan(0);
    expect(hits.find((h) => h.description === "memory 1")?.scores.relevance).toBe(0);
    expect(hits.find((h) => h.description === "no vector yet")?.scores.similarity ?? null).toBeNull();
  });

  it("is null with a relevance that is not a cosine", async () => {
    const hits = await ask({ query: "memory", relevance: "hybrid" });
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) expect(h.scores.similarity).toBeNull();
  });
});
