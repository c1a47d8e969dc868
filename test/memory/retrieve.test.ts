import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { type RefMemory, referenceRanking } from "../support/reference-ranking";
import { startTestSystem, type TestSystem } from "../support/system";

const NOW = "2026-01-10T12:00:00.000Z";
const hoursAgo = (h: number) => new Date(Date.parse(NOW) - h * 3_600_000).toISOString();
const MODEL = "test-3d";

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

type Seed = {
  text: string;
  at: string;
  importance?: number;
  vector?: number[];
  model?: string;
  kind?: string;
  metadata?: object;
};

async function seed(agent: string, items: Seed[]) {
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
    memories: items.map((s) => ({
      description: s.text,
      createdAt: s.at,
      ...(s.importance === undefined ? {} : { importance: s.importance }),
      ...(s.vector ? { embedding: s.vector, embeddingModel: s.model ?? MODEL } : {}),
      ...(s.kind ? { kind: s.kind } : {}),
      ...(s.metadata ? { metadata: s.metadata } : {}),
    })),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { memories: { id: string; description: string }[] };
  return Object.fromEntries(body.memories.map((m) => [m.description, m.id]));
}

type Result = {
  id: string;
  description: string;
  score: number;
  lastAccessedAt: string;
  scores: { recency: number; importance: number; relevance: number; similarity: number | null };
};
async function retrieve(agent: string, body: object): Promise<Result[]> {
  // These tests check the paper's formula by hand, so they ask for it (the default is `balanced`).
  const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
    now: NOW,
    touch: false,
    preset: "paper",
    ...body,
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { memories: Result[] }).memories;
}

describe("retrieve: each component by hand", () => {
  it("recency decays per hour since last access, min-max scaled", async () => {
    const agent = uniq("rec");
    await seed(agent, [
      { text: "now", at: hoursAgo(0), importance: 5 },
      { text: "one hour", at: hoursAgo(1), importance: 5 },
      { text: "two hours", at: hoursAgo(2), importance: 5 },
    ]);
    // decay 0.5: raw 1, 0.5, 0.25 → scaled 1, (0.5-0.25)/0.75 = 1/3, 0
    const got = await retrieve(agent, { decay: 0.5, weights: { recency: 1, importance: 0, relevance: 0 } });
    expect(got.map((m) => m.description)).toEqual(["now", "one hour", "two hours"]);
    expect(got.map((m) => m.scores.recency)).toEqual([1, expect.closeTo(1 / 3, 9), 0]);
    expect(got.map((m) => m.score)).toEqual([1, expect.closeTo(1 / 3, 9), 0]);
  });

  it("importance is min-max scaled; an equal component is 0.5 for everyone", async () => {
    const agent = uniq("imp");
    await seed(agent, [
      { text: "two", at: hoursAgo(3), importance: 2 },
      { text: "five", at: hoursAgo(3), importance: 5 },
      { text: "eight", at: hoursAgo(3), importance: 8 },
    ]);
    const got = await retrieve(agent, {});
    expect(got.map((m) => m.description)).toEqual(["eight", "five", "two"]);
    expect(got.map((m) => m.scores.importance)).toEqual([1, 0.5, 0]);
    // same access time → recency equal → 0.5; no query → relevance 0
    expect(got.map((m) => m.scores.recency)).toEqual([0.5, 0.5, 0.5]);
    expect(got.map((m) => m.scores.relevance)).toEqual([0, 0, 0]);
    expect(got.map((m) => m.score)).toEqual([1.5, 1, 0.5]);
  });

  it("relevance is cosine similarity to the query embedding, scaled", async () => {
    const agent = uniq("rel");
    await seed(agent, [
      { text: "same", at: hoursAgo(1), importance: 5, vector: [1, 0, 0] },
      { text: "diagonal", at: hoursAgo(1), importance: 5, vector: [1, 1, 0] },
      { text: "orthogonal", at: hoursAgo(1), importance: 5, vector: [0, 0, 1] },
    ]);
    const got = await retrieve(agent, {
      queryEmbedding: [2, 0, 0],
      embeddingModel: MODEL,
      weights: { recency: 0, importance: 0 },
    });
    // cosines 1, 1/√2, 0 → scaled 1, 0.7071, 0
    expect(got.map((m) => m.description)).toEqual(["same", "diagonal", "orthogonal"]);
    expect(got[1]?.scores.relevance).toBeCloseTo(Math.SQRT1_2, 6);
    expect(got[2]?.scores.relevance).toBe(0);
  });

  it("a single memory scores 0.5 on every component", async () => {
    const agent = uniq("one");
    await seed(agent, [{ text: "alone", at: hoursAgo(9), importance: 3, vector: [0, 1, 0] }]);
    const [m] = await retrieve(agent, { queryEmbedding: [1, 1, 0], embeddingModel: MODEL });
    // Scaled, each is 0.5; the cosine itself ([0, 1, 0] against [1, 1, 0]) is not.
    expect(m?.scores).toEqual({
      recency: 0.5,
      importance: 0.5,
      relevance: 0.5,
      lift: 0,
      subject: 0,
      similarity: expect.any(Number),
    });
    expect(m?.scores.similarity).toBeCloseTo(Math.SQRT1_2, 6);
    expect(m?.score).toBe(1.5);
  });

  it("an agent with no memories has an empty stream", async () => {
    expect(await retrieve(uniq("empty"), { query: "anything" })).toEqual([]);
  });
});

describe("retrieve: the combined formula against a reference implementation", () => {
  it("ranks 25 memories exactly as the formula defines, for several weightings", async () => {
    const agent = uniq("mix");
    const items: Seed[] = Array.from({ length: 25 }, (_, i) => ({
      text: `memory ${i}`,
      at: hoursAgo((i * 7) % 30),
      importance: i % 4 === 3 ? undefined : 1 + ((i * 3) % 10),
      vector: i % 5 === 4 ? undefined : [Math.cos(i), Math.sin(i), (i % 3) - 1],
    }));
    const ids = await seed(agent, items);
    const query = [0.3, 0.9, -0.2];
    for (const weights of [
      { recency: 1, importance: 1, relevance: 1 },
      { recency: 0, importance: 0, relevance: 1 },
      { recency: 2, importance: 0.5, relevance: 0 },
    ]) {
      const got = await retrieve(agent, {
        queryEmbedding: query,
        embeddingModel: MODEL,
        weights,
        k: 25,
        decay: 0.9,
      });
      const ref: RefMemory[] = items.map((s) => ({
        id: ids[s.text] as string,
        lastAccessedAt: s.at,
        importance: s.importance ?? null,
        vector: s.vector ?? null,
      }));
      const want = referenceRanking(ref, { now: NOW, decay: 0.9, weights, query });
      expect(got.map((m) => m.score)).toEqual(want.map((w) => expect.closeTo(w.score, 5)));
      // Each memory's own score matches the reference, so with the line above the order is the reference order.
      for (const m of got) expect(want.find((w) => w.id === m.id)?.score).toBeCloseTo(m.score, 5);
    }
  });
});

describe("retrieve: presets and the recency unit against the reference implementation", () => {
  // Spread over weeks, so the unit matters: with hourly decay everything older than days is ~0.
  const items: Seed[] = Array.from({ length: 20 }, (_, i) => ({
    text: `memory ${i}`,
    at: hoursAgo(((i * 37) % 60) * 11),
    importance: i % 6 === 5 ? undefined : 1 + ((i * 7) % 10),
    vector: i % 7 === 6 ? undefined : [Math.sin(i), Math.cos(2 * i), (i % 4) - 1.5],
  }));
  const query = [0.5, -0.4, 0.7];
  const refOf = (ids: Record<string, string>): RefMemory[] =>
    items.map((s) => ({
      id: ids[s.text] as string,
      lastAccessedAt: s.at,
      importance: s.importance ?? null,
      vector: s.vector ?? null,
    }));
  const ask = async (agent: string, body: object) => {
    const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
      now: NOW,
      touch: false,
      queryEmbedding: query,
      embeddingModel: MODEL,
      k: 20,
      ...body,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { memories: Result[]; ranking: Record<string, unknown> };
  };
  // Vectors are stored as float4, so cosines differ from the float64 reference in the 8th digit.
  const expectReference = (got: Result[], want: ReturnType<typeof referenceRanking>) => {
    expect(got.map((m) => m.id)).toEqual(want.map((w) => w.id));
    for (const m of got) expect(want.find((w) => w.id === m.id)?.score).toBeCloseTo(m.score, 6);
  };

  it("preset paper is the paper's formula: 1, 1, 1, 0.99 per hour, cosine", async () => {
    const agent = uniq("paper");
    const ids = await seed(agent, items);
    const ref = refOf(ids);
    const got = await ask(agent, { preset: "paper" });
    const weights = { recency: 1, importance: 1, relevance: 1 };
    expectReference(got.memories, referenceRanking(ref, { now: NOW, decay: 0.99, weights, query }));
    expect(got.ranking).toMatchObject({
      preset: "paper",
      weights,
      decay: 0.99,
      recencyUnit: "hour",
      relevance: "vector",
    });
  });

  it("recencyUnit day applies the decay per day; reference is the reference code's weights", async () => {
    const agent = uniq("unit");
    const ids = await seed(agent, items);
    const ref = refOf(ids);
    const weights = { recency: 1, importance: 0.5, relevance: 2 };
    const byDay = await ask(agent, { weights, decay: 0.9, recencyUnit: "day", relevance: "vector" });
    expectReference(
      byDay.memories,
      // The default preset's scale floors are in force (no query text: no focus, no lift).
      referenceRanking(ref, { now: NOW, decay: 0.9, unitSeconds: 86_400, weights, query, scaleFloors: true }),
    );
    expect(byDay.ranking).toMatchObject({
      decay: 0.9,
      recencyUnit: "day",
      source: { recencyUnit: "request" },
    });
    const byWeek = await ask(agent, { weights, decay: 0.9, recencyUnit: "week", relevance: "vector" });
    expectReference(
      byWeek.memories,
      referenceRanking(ref, {
        now: NOW,
        decay: 0.9,
        unitSeconds: 604_800,
        weights,
        query,
        scaleFloors: true,
      }),
    );
    const reference = await ask(agent, { preset: "reference" });
    const gw = { recency: 0.5, importance: 2, relevance: 3 };
    expectReference(reference.memories, referenceRanking(ref, { now: NOW, decay: 0.99, weights: gw, query }));
    expect(reference.ranking).toMatchObject({
      preset: "reference",
      weights: gw,
      source: { preset: "request" },
    });
  });
});

describe("retrieve: candidate set, time and enrichment state", () => {
  it("weights of zero remove a component from the score", async () => {
    const agent = uniq("w0");
    await seed(agent, [
      { text: "old but important", at: hoursAgo(48), importance: 10 },
      { text: "new but dull", at: hoursAgo(0), importance: 1 },
    ]);
    const byImportance = await retrieve(agent, { weights: { recency: 0, importance: 1, relevance: 0 } });
    expect(byImportance.map((m) => m.description)).toEqual(["old but important", "new but dull"]);
    const byRecency = await retrieve(agent, { weights: { recency: 1, importance: 0, relevance: 0 } });
    expect(byRecency.map((m) => m.description)).toEqual(["new but dull", "old but important"]);
    expect(byRecency.map((m) => m.score)).toEqual([1, 0]);
  });

  it("`now` in the past: an access after now counts as zero hours", async () => {
    const agent = uniq("past");
    await seed(agent, [
      { text: "future", at: "2026-01-10T15:00:00.000Z", importance: 5 },
      { text: "at now", at: NOW, importance: 5 },
      { text: "before", at: hoursAgo(10), importance: 5 },
    ]);
    const got = await retrieve(agent, { decay: 0.5, weights: { importance: 0 } });
    // "future" and "at now" both have raw recency 1 → scaled 1; "before" 0.5^10 → 0.
    expect(got.find((m) => m.description === "future")?.scores.recency).toBe(1);
    expect(got.find((m) => m.description === "at now")?.scores.recency).toBe(1);
    expect(got.at(-1)?.description).toBe("before");
  });

  it("touch sets lastAccessedAt to now for the returned memories only, and changes the next ranking", async () => {
    const agent = uniq("touch");
    await seed(agent, [
      { text: "a", at: hoursAgo(5), importance: 9 },
      { text: "b", at: hoursAgo(1), importance: 1 },
      { text: "c", at: hoursAgo(3), importance: 2 },
    ]);
    const untouched = await retrieve(agent, { k: 1, weights: { recency: 0 }, touch: false });
    expect(untouched[0]?.description).toBe("a");
    expect(untouched[0]?.lastAccessedAt).toBe(hoursAgo(5));
    const again = await retrieve(agent, { k: 3, weights: { importance: 0 }, touch: false });
    expect(again[0]?.description).toBe("b"); // touch:false left "a" as it was

    const touched = await retrieve(agent, { k: 1, weights: { recency: 0 }, touch: true });
    expect(touched[0]?.lastAccessedAt).toBe(NOW);
    const after = await retrieve(agent, { k: 3, weights: { importance: 0 } });
    expect(after.map((m) => m.description)).toEqual(["a", "b", "c"]);
    expect(after.find((m) => m.description === "c")?.lastAccessedAt).toBe(hoursAgo(3));
  });

  it("kinds and filters shrink the candidate set, and min-max is taken over it", async () => {
    const agent = uniq("filt");
    await seed(agent, [
      { text: "obs low", at: hoursAgo(1), importance: 1, metadata: { repo: "a" } },
      { text: "obs mid", at: hoursAgo(1), importance: 4, metadata: { repo: "a", pr: 7 } },
      { text: "refl high", at: hoursAgo(1), importance: 10, kind: "reflection", metadata: { repo: "b" } },
      { text: "obs old", at: hoursAgo(100), importance: 7, metadata: { repo: "a" } },
    ]);
    const obs = await retrieve(agent, { kinds: ["observation"], weights: { recency: 0 } });
    expect(obs.map((m) => m.description)).toEqual(["obs old", "obs mid", "obs low"]);
    expect(obs.map((m) => m.scores.importance)).toEqual([1, 0.5, 0]); // 7 is the max now, not 10
    const repoA = await retrieve(agent, {
      filters: { metadata: { repo: "a" }, since: hoursAgo(2) },
      weights: { recency: 0 },
    });
    expect(repoA.map((m) => m.description)).toEqual(["obs mid", "obs low"]);
    const until = await retrieve(agent, { filters: { until: hoursAgo(50) } });
    expect(until.map((m) => m.description)).toEqual(["obs old"]);
  });

  it("pending importance counts as 0.5 and a missing vector as the lowest relevance", async () => {
    const agent = uniq("pend");
    await seed(agent, [
      { text: "scored high", at: hoursAgo(1), importance: 9, vector: [1, 0, 0] },
      { text: "scored low", at: hoursAgo(1), importance: 1, vector: [0, 1, 0] },
      { text: "unscored", at: hoursAgo(1), vector: [1, 1, 0] },
      { text: "unembedded", at: hoursAgo(1), importance: 9 },
    ]);
    const got = await retrieve(agent, {
      queryEmbedding: [1, 0, 0],
      embeddingModel: MODEL,
      weights: { recency: 0 },
    });
    const by = Object.fromEntries(got.map((m) => [m.description, m.scores]));
    expect(by.unscored?.importance).toBe(0.5);
    expect(by["scored high"]?.importance).toBe(1);
    expect(by.unembedded?.relevance).toBe(0);
    expect(by["scored low"]?.relevance).toBe(0); // cosine 0 is the minimum among embedded ones
    expect(by.unscored?.relevance).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it("vectors of another embedding model are never compared", async () => {
    const agent = uniq("model");
    await seed(agent, [
      { text: "model A", at: hoursAgo(1), importance: 5, vector: [1, 0, 0], model: "model-a" },
      { text: "model B", at: hoursAgo(1), importance: 5, vector: [1, 0, 0], model: "model-b" },
      { text: "model A far", at: hoursAgo(1), importance: 5, vector: [0, 1, 0], model: "model-a" },
    ]);
    const got = await retrieve(agent, {
      queryEmbedding: [1, 0, 0],
      embeddingModel: "model-a",
      weights: { recency: 0, importance: 0 },
    });
    const by = Object.fromEntries(got.map((m) => [m.description, m.scores.relevance]));
    expect(by).toEqual({ "model A": 1, "model A far": 0, "model B": 0 });
  });

  it("a query text is embedded with the configured embedder (through the OpenAI-compatible API)", async () => {
    const agent = uniq("text");
    await seed(agent, [
      { text: "the deploy to production failed", at: hoursAgo(1) },
      { text: "lunch was pasta with tomato sauce", at: hoursAgo(1) },
    ]);
    // Give both memories vectors of the configured model via PATCH-free path: re-post embeddings.
    const { stubEmbedding } = await import("../support/stub-openai");
    const list = (await (await t.call("GET", `/v1/agents/${agent}/memories`)).json()) as {
      memories: { id: string; description: string }[];
    };
    for (const m of list.memories) {
      const res = await t.call("PATCH", `/v1/agents/${agent}/memories/${m.id}`, {
        embedding: stubEmbedding(m.description, 64),
      });
      expect(res.status).toBe(200);
    }
    const before = t.stub.calls.embeddings;
    const got = await retrieve(agent, {
      query: "production deploy failed",
      weights: { recency: 0, importance: 0 },
    });
    expect(t.stub.calls.embeddings).toBe(before + 1);
    expect(got[0]?.description).toBe("the deploy to production failed");
    expect(got[0]?.scores.relevance).toBe(1);
  });

  it("k limits the answer; the response explains every score", async () => {
    const agent = uniq("k");
    await seed(
      agent,
      Array.from({ length: 12 }, (_, i) => ({ text: `m${i}`, at: hoursAgo(i), importance: 1 + (i % 10) })),
    );
    expect(await retrieve(agent, {})).toHaveLength(10);
    const three = await retrieve(agent, { k: 3 });
    expect(three).toHaveLength(3);
    for (const m of three)
      expect(m.score).toBeCloseTo(m.scores.recency + m.scores.importance + m.scores.relevance, 9);
  });
});
