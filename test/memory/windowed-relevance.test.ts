import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

const NOW = "2026-01-10T12:00:00.000Z";
const MODEL = "test-3d";

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

type Result = { description: string; scores: { relevance: number } };

// A short conversation in createdAt order; English lexemes and counts in the comments.
const TURNS = [
  "Pizza for lunch", // pizza, lunch (2)
  "We are planning the volcano trip", // plan, trip, volcano (3)
  "It was amazing", // amaz (1): the reply names nothing the question asks
  "Pizza for dinner", // pizza, dinner (2)
];

async function stream(agent: string) {
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
    memories: TURNS.map((text, i) => ({
      description: text,
      createdAt: `2026-01-10T0${i + 1}:00:00.000Z`,
      importance: 5,
      embedding: [1, 0, 0], // one vector for all: cosine' is 0.5 everywhere, only words decide
      embeddingModel: MODEL,
    })),
  });
  expect(res.status).toBe(201);
}

async function relevanceOf(
  agent: string,
  relevance: string,
  vectorShare = 0.6,
): Promise<Map<string, number>> {
  const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
    query: "the volcano",
    queryEmbedding: [1, 0, 0],
    embeddingModel: MODEL,
    now: NOW,
    touch: false,
    mode: "exact",
    relevance,
    vectorShare,
    weights: { recency: 0, importance: 0, relevance: 1 },
  });
  expect(res.status).toBe(200);
  const { memories } = (await res.json()) as { memories: Result[] };
  return new Map(memories.map((m) => [m.description, m.scores.relevance]));
}

/** BM25 of one term (k1 1.2, b 0.75) with fractional tf and length, by hand. */
const bm25 = (tf: number, df: number, n: number, dl: number, avgdl: number) =>
  (Math.log(1 + (n - df + 0.5) / (df + 0.5)) * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * dl) / avgdl));
const scale = (xs: number[]) => {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return xs.map((x) => (x - lo) / (hi - lo));
};

describe("retrieve: windowed relevance (BM25F with the neighbours' words)", () => {
  it("counts the neighbours' words in BM25F at 0.5, 0.35, … by distance, then fuses and adds the neighbour share like contextual", async () => {
    const agent = uniq("win");
    await stream(agent);
    const got = await relevanceOf(agent, "windowed");
    // One run (an hour apart at most): volcano's frequency in each window is own + 0.5 × the
    // next memories' + 0.35 × the memories two places away (+ 0.245 three away); length likewise.
    const tf = [0.5, 1, 0.5, 0.35];
    const dl = [
      2 + 0.5 * 3 + 0.35 * 1 + 0.245 * 2,
      3 + 0.5 * (2 + 1) + 0.35 * 2,
      1 + 0.5 * (3 + 2) + 0.35 * 2,
      2 + 0.5 * 1 + 0.35 * 3 + 0.245 * 2,
    ];
    const avgdl = dl.reduce((a, b) => a + b, 0) / 4;
    const lex = scale(tf.map((f, i) => bm25(f, 4, 4, dl[i] as number, avgdl)));
    const fused = lex.map((l) => 0.6 * 0.5 + 0.4 * l);
    const ctx = fused.map((f, i) => f + 0.7 * Math.max(fused[i - 1] ?? 0, fused[i + 1] ?? 0));
    const expected = scale(ctx);
    TURNS.forEach((text, i) => {
      expect(got.get(text)).toBeCloseTo(expected[i] as number, 9);
    });
  });

  it("takes words from up to 5 places away, fewer the further, and never across an hour's gap", async () => {
    const agent = uniq("win-reach");
    // volcano in the first memory only; then 6 fillers a minute apart, then one a day later.
    const texts = ["volcano", "alpha", "bravo", "charlie", "delta", "echo", "golf", "foxtrot"];
    const minutes = [0, 1, 2, 3, 4, 5, 6, 24 * 60 + 6];
    const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
      memories: texts.map((text, i) => ({
        description: text,
        createdAt: new Date(
          Date.parse("2026-01-10T01:00:00.000Z") + (minutes[i] as number) * 60_000,
        ).toISOString(),
        importance: 5,
        embedding: [1, 0, 0],
        embeddingModel: MODEL,
      })),
    });
    expect(res.status).toBe(201);
    const got = await relevanceOf(agent, "windowed");
    // BM25F: volcano counts for alpha…echo (1–5 places away), not for foxtrot (a day later);
    // contextual's share lifts golf (6 away) by echo's, and foxtrot has no neighbour at all.
    const lex = await relevanceOf(agent, "windowed", 0);
    // Lexical part alone (α 0) decreases with distance up to echo; foxtrot gets nothing.
    const order = ["volcano", "alpha", "bravo", "charlie", "delta", "echo"].map((x) => lex.get(x) ?? -1);
    for (let i = 1; i < order.length; i++) expect(order[i]).toBeLessThan(order[i - 1] as number);
    expect(lex.get("foxtrot")).toBe(0);
    expect(got.get("foxtrot")).toBe(0);
    expect(got.get("golf")).toBeGreaterThan(0);
    expect(got.get("golf")).toBeLessThan(got.get("echo") ?? 0);
  });

  it("lifts the reply that shares no word with the question above where contextual puts it", async () => {
    const agent = uniq("win2");
    await stream(agent);
    const windowed = await relevanceOf(agent, "windowed");
    const contextual = await relevanceOf(agent, "contextual");
    const reply = "It was amazing";
    expect(windowed.get(reply)).toBeGreaterThan((contextual.get(reply) ?? 1) + 0.05);
    expect(windowed.get(reply)).toBeGreaterThan(windowed.get("Pizza for dinner") ?? 1);
  });

  it("needs the query text like the other lexical relevances", async () => {
    const res = await t.call("POST", `/v1/agents/${uniq("win3")}/retrieve`, {
      queryEmbedding: [1, 0, 0],
      embeddingModel: MODEL,
      relevance: "windowed",
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("query");
  });
});
