import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PRESET, PRESETS } from "../../src/memory/retrieve/presets";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

const NOW = "2026-01-10T12:00:00.000Z";
const AT = "2026-01-10T09:00:00.000Z";
const MODEL = "test-3d";

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

type Seed = { text: string; vector?: number[]; kind?: string };
type Result = { description: string; score: number; scores: { relevance: number } };

async function seed(agent: string, items: Seed[]) {
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
    memories: items.map((s) => ({
      description: s.text,
      createdAt: AT,
      importance: 5,
      ...(s.vector ? { embedding: s.vector, embeddingModel: MODEL } : {}),
      ...(s.kind ? { kind: s.kind } : {}),
    })),
  });
  expect(res.status).toBe(201);
}

async function retrieve(agent: string, body: object): Promise<Result[]> {
  const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
    now: NOW,
    touch: false,
    mode: "exact",
    weights: { recency: 0, importance: 0, relevance: 1 },
    ...body,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { memories: Result[] }).memories;
}

/** Okapi BM25 of one term (k1 1.2, b 0.75, idf ln(1 + (N − df + 0.5)/(df + 0.5))), by hand. */
const bm25 = (tf: number, df: number, n: number, dl: number, avgdl: number) =>
  (Math.log(1 + (n - df + 0.5) / (df + 0.5)) * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * dl) / avgdl));

describe("retrieve: lexical relevance (BM25 in Postgres)", () => {
  it("scores the query's stemmed words with BM25 over the candidate set, min-max scaled", async () => {
    const agent = uniq("lex");
    // English lexemes: {plan, volcano, hike} (3), {trip, beach} (2), {lunch, pizza} (2).
    await seed(agent, [
      { text: "We planned a volcano hike" },
      { text: "The trip to the beach" },
      { text: "Lunch was pizza" },
    ]);
    const got = await retrieve(agent, { query: "volcano hiking trip", relevance: "lexical" });
    const avgdl = 7 / 3;
    const a = bm25(1, 1, 3, 3, avgdl) * 2; // volcano + hike ("hiking" stems to hike)
    const b = bm25(1, 1, 3, 2, avgdl); // trip
    expect(got.map((m) => m.description)).toEqual([
      "We planned a volcano hike",
      "The trip to the beach",
      "Lunch was pizza",
    ]);
    expect(got.map((m) => m.scores.relevance)).toEqual([1, expect.closeTo(b / a, 9), 0]);
  });

  it("a memory sharing a rare word with the query outranks ones sharing a common word", async () => {
    const agent = uniq("rare");
    await seed(agent, [
      { text: "Caroline likes tea" },
      { text: "Caroline went running" },
      { text: "Caroline met Mel" },
      { text: "Someone bought pottery" },
    ]);
    const got = await retrieve(agent, { query: "Did Caroline buy pottery?", relevance: "lexical" });
    expect(got[0]?.description).toBe("Someone bought pottery");
    expect(got[0]?.scores.relevance).toBe(1);
  });

  it("df and average length come from the candidate set (kinds and filters)", async () => {
    const agent = uniq("cand");
    await seed(agent, [
      { text: "gamma ray" },
      { text: "gamma burst", kind: "plan" },
      { text: "gamma gamma", kind: "plan" },
      { text: "delta", kind: "plan" },
    ]);
    const got = await retrieve(agent, { query: "gamma", relevance: "lexical", kinds: ["plan"] });
    // Over the 3 plans only: df(gamma) = 2, N = 3, lengths 2, 1, 1 (distinct lexemes).
    const burst = bm25(1, 2, 3, 2, 4 / 3);
    const twice = bm25(2, 2, 3, 1, 4 / 3);
    expect(got.map((m) => m.description)).toEqual(["gamma gamma", "gamma burst", "delta"]);
    expect(got.map((m) => m.scores.relevance)).toEqual([1, expect.closeTo(burst / twice, 9), 0]);
  });

  it("quotes, backslashes and tsquery operators in the query are plain text", async () => {
    const agent = uniq("quote");
    // The URL parser keeps a quote inside lexemes (`foo.com/a'b`, `/a'b`): they must be quoted.
    await seed(agent, [
      { text: "Docs at http://foo.com/a'b" },
      { text: "Mel's tea" },
      { text: "Nothing else" },
    ]);
    const got = await retrieve(agent, { query: "foo.com/a'b \\ & !tea | (x:*)", relevance: "lexical" });
    expect(got.map((m) => m.description)).toEqual([
      "Docs at http://foo.com/a'b",
      "Mel's tea",
      "Nothing else",
    ]);
    expect(got[1]?.scores.relevance).toBeGreaterThan(0);
  });

  it("a query of stop words only matches nothing: relevance is equal, 0.5 for all", async () => {
    const agent = uniq("stop");
    await seed(agent, [{ text: "The cat sat" }, { text: "A dog ran" }]);
    const got = await retrieve(agent, { query: "the a of", relevance: "lexical" });
    expect(got.map((m) => m.scores.relevance)).toEqual([0.5, 0.5]);
  });

  it("never calls the embedder", async () => {
    const agent = uniq("noemb");
    // Vectors and importance given: no enrichment job calls the stub meanwhile.
    await seed(agent, [
      { text: "Klaus brings the cake", vector: [1, 0, 0] },
      { text: "Maria sings", vector: [0, 1, 0] },
    ]);
    const before = t.stub.calls.embeddings;
    const got = await retrieve(agent, { query: "Who sings?", relevance: "lexical" });
    expect(got[0]?.description).toBe("Maria sings");
    expect(t.stub.calls.embeddings).toBe(before);
  });
});

describe("retrieve: hybrid relevance", () => {
  it.each([
    [
      "the hybrid default α 0.6 (paper preset, where hybrid is not the preset's relevance)",
      { preset: "paper" },
      0.6,
    ],
    ["vectorShare from the request", { vectorShare: 0.3 }, 0.3],
    ["the default preset's vectorShare", {}, PRESETS[DEFAULT_PRESET].vectorShare],
  ] as const)(
    "fuses α·cosine' + (1 − α)·bm25' (each scaled over the candidates), then scales the sum: %s",
    async (_, extra, a) => {
      const agent = uniq("hyb");
      await seed(agent, [
        { text: "alpha beta", vector: [1, 0, 0] },
        { text: "gamma delta", vector: [0, 1, 0] },
        { text: "gamma epsilon zeta", vector: [1, 1, 0] },
        { text: "gamma", kind: "plan" }, // no vector of the query's model: cosine' = 0
      ]);
      const got = await retrieve(agent, {
        query: "gamma",
        queryEmbedding: [1, 0, 0],
        embeddingModel: MODEL,
        ...extra,
        relevance: "hybrid",
        weights: { recency: 0, importance: 0, relevance: 1 },
      });
      const avgdl = (2 + 2 + 3 + 1) / 4;
      const lex = {
        delta: bm25(1, 3, 4, 2, avgdl),
        zeta: bm25(1, 3, 4, 3, avgdl),
        only: bm25(1, 3, 4, 1, avgdl),
      };
      const max = lex.only; // the shortest document matching gamma scores highest
      const fused = {
        "alpha beta": a * 1 + (1 - a) * 0,
        "gamma delta": a * 0 + (1 - a) * (lex.delta / max),
        "gamma epsilon zeta": a * Math.SQRT1_2 + (1 - a) * (lex.zeta / max),
        gamma: a * 0 + (1 - a) * 1,
      };
      const lo = Math.min(...Object.values(fused));
      const hi = Math.max(...Object.values(fused));
      const expected = Object.entries(fused)
        .map(([text, f]) => ({ text, rel: (f - lo) / (hi - lo) }))
        .sort((x, y) => y.rel - x.rel);
      expect(got.map((m) => m.description)).toEqual(expected.map((e) => e.text));
      got.forEach((m, i) => {
        expect(m.scores.relevance).toBeCloseTo(expected[i]?.rel ?? Number.NaN, 9);
      });
    },
  );

  it("combines with recency and importance like the vector relevance does", async () => {
    const agent = uniq("hybw");
    await seed(agent, [
      { text: "pottery class", vector: [1, 0, 0] },
      { text: "tea time", vector: [0, 1, 0] },
    ]);
    const got = await retrieve(agent, {
      query: "pottery",
      queryEmbedding: [1, 0, 0],
      embeddingModel: MODEL,
      relevance: "hybrid",
      weights: { recency: 1, importance: 1, relevance: 2 },
    });
    // Equal recency and importance scale to 0.5 each; relevance' is 1 and 0.
    expect(got.map((m) => m.score)).toEqual([3, 1]);
  });
});

describe("retrieve: relevance option validation and defaults", () => {
  it("vector is the paper preset's: the same ranking and scores as before the option existed", async () => {
    const agent = uniq("def");
    await seed(agent, [
      { text: "same", vector: [1, 0, 0] },
      { text: "diagonal", vector: [1, 1, 0] },
      { text: "orthogonal", vector: [0, 0, 1] },
    ]);
    const body = { queryEmbedding: [2, 0, 0], embeddingModel: MODEL, query: "orthogonal", preset: "paper" };
    const implicit = await retrieve(agent, body);
    expect(await retrieve(agent, { ...body, relevance: "vector" })).toEqual(implicit);
    expect(implicit.map((m) => m.description)).toEqual(["same", "diagonal", "orthogonal"]);
  });

  it("rejects an unknown relevance, naming the field", async () => {
    const res = await t.call("POST", `/v1/agents/${uniq("bad")}/retrieve`, { query: "x", relevance: "bm25" });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; details: { field: string } } };
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.details.field).toBe("body.relevance");
  });

  it("lexical and hybrid need the query text", async () => {
    for (const relevance of ["lexical", "hybrid"]) {
      const res = await t.call("POST", `/v1/agents/${uniq("noq")}/retrieve`, {
        queryEmbedding: [1, 0, 0],
        embeddingModel: MODEL,
        relevance,
      });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { message: string; details: { field: string } } };
      expect(body.error.details.field).toBe("query");
      expect(body.error.message).toContain(relevance);
    }
  });

  it("mode fast refuses lexical relevance; auto ranks it exactly", async () => {
    const agent = uniq("mode");
    await seed(agent, [{ text: "pottery class" }]);
    const fast = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
      query: "pottery",
      relevance: "lexical",
      mode: "fast",
    });
    expect(fast.status).toBe(400);
    expect(((await fast.json()) as { error: { details: { field: string } } }).error.details.field).toBe(
      "mode",
    );
    const auto = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
      query: "pottery",
      relevance: "lexical",
    });
    expect(auto.status).toBe(200);
    expect(((await auto.json()) as { mode: string }).mode).toBe("exact");
  });
});
