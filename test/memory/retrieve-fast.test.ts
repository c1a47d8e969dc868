import pgvector from "pgvector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHnswIndexSql, forgetHnswIndexes, type HnswIndex } from "../../src/memory/retrieve/hnsw-index";
import { fastRank, useIndexPaths } from "../../src/memory/retrieve/statements/fast";
import type { RankParams } from "../../src/memory/retrieve/statements/params";
import { TEST_DISTRIBUTED, uniq } from "../support/env";
import { type RefMemory, referenceRanking } from "../support/reference-ranking";
import { startTestSystem, type TestSystem } from "../support/system";

const NOW = "2026-01-10T12:00:00.000Z";
const hoursAgo = (h: number) => new Date(Date.parse(NOW) - h * 3_600_000).toISOString();
// A model of this file's own, so its HNSW index never changes another file's plans.
const MODEL = uniq("fast-3d");
const OTHER = uniq("plain-3d");

const index: HnswIndex = { model: MODEL, dimensions: 3, storage: "vector" };

let t: TestSystem;
// Thresholds 0: these small streams exercise the threshold search itself (the service's default
// ranks streams under 20,000 memories exactly; the last tests check that rule).
const SEARCH_ALWAYS = { MEMSTREAM_FAST_MIN_STREAM: "0", MEMSTREAM_FAST_MIN_SHARE: "0" };
beforeAll(async () => {
  t = await startTestSystem({ env: SEARCH_ALWAYS });
  const db = t.system.database.db;
  await db.execute(createHnswIndexSql(index, { m: 16, efConstruction: 64 }));
  forgetHnswIndexes(db);
});
afterAll(() => t.close());

type Item = { text: string; at: string; importance?: number; vector?: number[]; model?: string };
type Result = { id: string; score: number; lastAccessedAt: string };
type Body = { memories: Result[]; mode: string; ranking: { plan: string; planReason: string } };

async function seed(agent: string, items: Item[]): Promise<string[]> {
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
    memories: items.map((s) => ({
      description: s.text,
      createdAt: s.at,
      ...(s.importance === undefined ? {} : { importance: s.importance }),
      ...(s.vector ? { embedding: s.vector, embeddingModel: s.model ?? MODEL } : {}),
    })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { memories: { id: string }[] }).memories.map((m) => m.id);
}

async function retrieve(agent: string, body: object, on = t): Promise<{ status: number; body: Body }> {
  const res = await on.call("POST", `/v1/agents/${agent}/retrieve`, {
    now: NOW,
    touch: false,
    preset: "paper",
    ...body,
  });
  return { status: res.status, body: (await res.json()) as Body };
}

// 60 memories; every 5th has no vector and every 4th no importance (the enrichment rules).
const items: Item[] = Array.from({ length: 60 }, (_, i) => ({
  text: `memory ${i}`,
  at: hoursAgo((i * 7) % 50),
  importance: i % 4 === 3 ? undefined : 1 + ((i * 3) % 10),
  vector: i % 5 === 4 ? undefined : [Math.cos(i), Math.sin(i), (i % 3) - 1],
}));
const query = [0.3, 0.9, -0.2];
const WEIGHTS = { recency: 1, importance: 1, relevance: 1 };

describe("retrieve: fast mode", () => {
  it("equals the formula when the candidate lists cover the whole stream", async () => {
    const agent = uniq("fast");
    const ids = await seed(agent, items);
    const ref: RefMemory[] = items.map((s, i) => ({
      id: ids[i] as string,
      lastAccessedAt: s.at,
      importance: s.importance ?? null,
      vector: s.vector ?? null,
    }));
    for (const weights of [
      { recency: 1, importance: 1, relevance: 1 },
      { recency: 0, importance: 0, relevance: 1 },
    ]) {
      const got = await retrieve(agent, {
        queryEmbedding: query,
        embeddingModel: MODEL,
        weights,
        k: 10,
        mode: "fast",
      });
      expect(got.status).toBe(200);
      expect(got.body.mode).toBe("fast");
      expect(got.body.ranking.plan).toBe("fast");
      const want = referenceRanking(ref, { now: NOW, decay: 0.99, weights, query }).slice(0, 10);
      expect(got.body.memories.map((m) => m.score)).toEqual(want.map((w) => expect.closeTo(w.score, 5)));
    }
  });

  it("takes importance candidates by recency within an importance level, beyond 100 tied ones", async () => {
    // 150 importance-10 memories (hours 10–159) and 150 newer importance-1 ones (hours 0–9):
    // the 100 most recent are all importance 1, and importance alone ties 150 ways. The top 10
    // by recency + importance are the newest importance-10 memories; only a recency order
    // within the importance level finds them all (an arbitrary 100 of the 150 may not).
    const agent = uniq("fast-ties");
    const tied: Item[] = Array.from({ length: 300 }, (_, i) =>
      i < 150
        ? { text: `old important ${i}`, at: hoursAgo(10 + i), importance: 10 }
        : { text: `new trivial ${i}`, at: hoursAgo(((i - 150) * 9) / 150), importance: 1 },
    );
    const ids: string[] = [];
    for (let i = 0; i < tied.length; i += 100) ids.push(...(await seed(agent, tied.slice(i, i + 100))));
    const ref: RefMemory[] = tied.map((s, i) => ({
      id: ids[i] as string,
      lastAccessedAt: s.at,
      importance: s.importance ?? null,
      vector: null,
    }));
    const weights = { recency: 1, importance: 1, relevance: 0 };
    const got = await retrieve(agent, { weights, k: 10, mode: "fast" });
    expect(got.status).toBe(200);
    const want = referenceRanking(ref, { now: NOW, decay: 0.99, weights, query: null }).slice(0, 10);
    expect(got.body.memories.map((m) => m.id)).toEqual(want.map((w) => w.id));
  });

  it("auto ranks exactly; fast finds the true top 1 that is in no component's top list", async () => {
    // Each candidate list is filled by memories extreme in one component: 100 just accessed (T),
    // 100 important and fairly recent (I), 250 nearest the query (R). X is second-best on all
    // three and in none of the lists (its recency + importance is below every I's), yet the
    // formula ranks it first: X ≈ 0.67 + 0.67 + 0.95, I ≈ 0.74 + 1 + 0, R ≈ 0 + 0 + 1, T ≈ 1.
    const agent = uniq("auto");
    const far = [-1, 0, 0];
    const stream: Item[] = [
      { text: "X", at: hoursAgo(40), importance: 7, vector: [1, 0.5, 0] },
      ...Array.from({ length: 100 }, (_, i) => ({
        text: `T${i}`,
        at: hoursAgo(i / 100),
        importance: 1,
        vector: far,
      })),
      ...Array.from({ length: 100 }, (_, i) => ({
        text: `I${i}`,
        at: hoursAgo(30),
        importance: 10,
        vector: far,
      })),
      ...Array.from({ length: 250 }, (_, i) => ({
        text: `R${i}`,
        at: hoursAgo(500),
        importance: 1,
        vector: [1, 0.1 + i / 1000, 0],
      })),
    ];
    const ids: string[] = [];
    for (let i = 0; i < stream.length; i += 100) ids.push(...(await seed(agent, stream.slice(i, i + 100))));
    const ref: RefMemory[] = stream.map((s, i) => ({
      id: ids[i] as string,
      lastAccessedAt: s.at,
      importance: s.importance ?? null,
      vector: s.vector ?? null,
    }));
    const q = [1, 0, 0];
    const want = referenceRanking(ref, { now: NOW, decay: 0.99, weights: WEIGHTS, query: q }).slice(0, 10);
    const auto = await retrieve(agent, { queryEmbedding: q, embeddingModel: MODEL });
    expect(auto.body.mode).toBe("exact");
    expect(want[0]?.id).toBe(ids[0]);
    expect(auto.body.memories.map((m) => m.id)).toEqual(want.map((w) => w.id));
    // The threshold search reads past the lists until nothing unseen can beat the 10th score,
    // so fast mode finds X too (the union of per-component top lists did not).
    const fast = await retrieve(agent, { queryEmbedding: q, embeddingModel: MODEL, mode: "fast" });
    expect(fast.body.mode).toBe("fast");
    expect(fast.body.memories.map((m) => m.id)).toEqual(want.map((w) => w.id));
    // Filters and models without an index rank exactly too.
    const filtered = await retrieve(agent, {
      queryEmbedding: q,
      embeddingModel: MODEL,
      kinds: ["observation"],
    });
    expect(filtered.body.mode).toBe("exact");
  });

  it("reads deeper, round by round, until no unseen memory can beat the k-th score", async () => {
    // A model and index of its own: other tests store the same vectors for other agents, and
    // a filtered HNSW walk through duplicates may skip some (the approximation, not this rule).
    const own: HnswIndex = { model: uniq("rounds-3d"), dimensions: 3, storage: "vector" };
    const db = t.system.database.db;
    await db.execute(createHnswIndexSql(own, { m: 16, efConstruction: 64 }));
    const agent = uniq("fast-rounds");
    const ids = await seed(
      agent,
      items.map((s) => ({ ...s, model: own.model })),
    );
    const ref: RefMemory[] = items.map((s, i) => ({
      id: ids[i] as string,
      lastAccessedAt: s.at,
      importance: s.importance ?? null,
      vector: s.vector ?? null,
    }));
    for (const weights of [
      WEIGHTS,
      { recency: 0, importance: 1, relevance: 1 },
      { recency: 1, importance: 1, relevance: 0 },
    ]) {
      const p: RankParams = {
        agentId: agent,
        filters: {},
        query: { vector: pgvector.toSql(query), model: own.model, dimensions: 3 },
        now: new Date(NOW),
        decay: 0.99,
        weights,
        k: 10,
        touch: false,
      };
      // Two memories per list in the first round: far too few for a top 10.
      const got = await db.transaction(async (tx) => {
        await useIndexPaths(tx);
        return fastRank<{ id: string; score: number; certain: boolean; missed: boolean }>(tx, p, own, {
          relevance: 2,
          recImp: 2,
        });
      });
      const want = referenceRanking(ref, { now: NOW, decay: 0.99, weights, query }).slice(0, 10);
      expect(got?.rounds).toBeGreaterThan(2);
      // Same memories and scores; the order of near-ties may differ in the last float bits
      // between SQL and the reference (float4 vectors in pgvector, float8 in the reference).
      expect(got?.rows.map((r) => r.id).sort()).toEqual(want.map((w) => w.id).sort());
      expect(got?.rows.map((r) => r.score)).toEqual(want.map((w) => expect.closeTo(w.score, 6)));
    }
  });

  it("refuses fast with filters, or without an index for the model", async () => {
    const agent = uniq("fast-err");
    await seed(agent, items.slice(0, 5));
    const filtered = await retrieve(agent, {
      queryEmbedding: query,
      embeddingModel: MODEL,
      kinds: ["plan"],
      mode: "fast",
    });
    expect(filtered.status).toBe(400);
    const noIndex = await retrieve(agent, { queryEmbedding: query, embeddingModel: OTHER, mode: "fast" });
    expect(noIndex.status).toBe(400);
  });

  it("touches what it returns, never backwards", async () => {
    const agent = uniq("fast-touch");
    await seed(agent, items.slice(0, 30));
    const later = "2026-01-11T00:00:00.000Z";
    const got = await retrieve(agent, {
      queryEmbedding: query,
      embeddingModel: MODEL,
      k: 3,
      mode: "fast",
      touch: true,
      now: later,
    });
    expect(got.body.memories.map((m) => m.lastAccessedAt)).toEqual([later, later, later]);
    const again = await retrieve(agent, { k: 30, mode: "exact" });
    const touched = again.body.memories.filter((m) => m.lastAccessedAt === later).map((m) => m.id);
    expect(touched.sort()).toEqual(got.body.memories.map((m) => m.id).sort());
    // An earlier simulated now leaves the access times where they are.
    const earlier = await retrieve(agent, {
      queryEmbedding: query,
      embeddingModel: MODEL,
      k: 3,
      mode: "fast",
      touch: true,
    });
    for (const m of earlier.body.memories)
      expect(Date.parse(m.lastAccessedAt)).toBeGreaterThanOrEqual(Date.parse(NOW));
  });

  it("ranks exactly, and says so, a stream below MEMSTREAM_FAST_MIN_STREAM", async () => {
    const small = await startTestSystem({ env: { ...SEARCH_ALWAYS, MEMSTREAM_FAST_MIN_STREAM: "50" } });
    try {
      const [below, atBound] = [uniq("fast-below"), uniq("fast-bound")];
      await seed(
        below,
        items.slice(0, 40).map((i) => ({ ...i, vector: i.vector ?? [1, 0, 0] })),
      );
      await seed(
        atBound,
        items.slice(0, 50).map((i) => ({ ...i, vector: i.vector ?? [1, 0, 0] })),
      );
      const ask = { queryEmbedding: query, embeddingModel: MODEL, k: 5 };
      const got = await retrieve(below, { ...ask, mode: "fast" }, small);
      expect(got.status).toBe(200);
      expect(got.body.mode).toBe("exact");
      const exact = await retrieve(below, { ...ask, mode: "exact" }, small);
      expect(got.body.memories).toEqual(exact.body.memories);
      // 50 vectors of the model: the search runs.
      expect((await retrieve(atBound, { ...ask, mode: "fast" }, small)).body.mode).toBe("fast");
    } finally {
      await small.close();
    }
  });

  it("ranks a small stream exactly with the default thresholds, with or without an index, and says why", async () => {
    const defaults = await startTestSystem();
    try {
      const agent = uniq("fast-small");
      await seed(agent, items.slice(0, 20));
      await seed(
        agent,
        items.slice(0, 5).map((i) => ({ ...i, text: `${i.text} (other)`, model: OTHER })),
      );
      for (const model of [MODEL, OTHER]) {
        const ask = { queryEmbedding: query, embeddingModel: model, k: 5 };
        const fast = await retrieve(agent, { ...ask, mode: "fast" }, defaults);
        expect(fast.status).toBe(200);
        expect(fast.body.mode).toBe("exact");
        expect(fast.body.ranking).toMatchObject({ plan: "full" });
        expect(fast.body.ranking.planReason).toMatch(/^mode fast, stream under 20,000 vectors/);
        const exact = await retrieve(agent, { ...ask, mode: "exact" }, defaults);
        expect(exact.body.ranking.planReason).toMatch(/^stream under 3,300 memories/);
        expect(fast.body.memories).toEqual(exact.body.memories);
      }
    } finally {
      await defaults.close();
    }
  });

  // Not on Citus (docs/adr/0011-scale-out.md): the index's entry count comes from the statistics
  // of the node that runs the statement, which on a worker are the empty shell index's, so only
  // MEMSTREAM_FAST_MIN_STREAM gates fast mode there.
  it.skipIf(TEST_DISTRIBUTED === "citus")(
    "ranks exactly a stream holding less than MEMSTREAM_FAST_MIN_SHARE of the model's indexed vectors",
    async () => {
      const shared = await startTestSystem({ env: { ...SEARCH_ALWAYS, MEMSTREAM_FAST_MIN_SHARE: "0.5" } });
      try {
        // A model of this test's own: its index, built after the writes, counts 30 + 10 vectors.
        const model = uniq("fast-share");
        const own: HnswIndex = { model, dimensions: 3, storage: "vector" };
        const [big, little] = [uniq("fast-big"), uniq("fast-little")];
        const vectors = (n: number) =>
          items.slice(0, n).map((i, j) => ({ ...i, vector: [Math.cos(j), Math.sin(j), 0.5], model }));
        await seed(big, vectors(30));
        await seed(little, vectors(10));
        const db = shared.system.database.db;
        await db.execute(createHnswIndexSql(own, { m: 16, efConstruction: 64 }));
        forgetHnswIndexes(db);
        const ask = { queryEmbedding: query, embeddingModel: model, k: 5, mode: "fast" };
        expect((await retrieve(big, ask, shared)).body.mode).toBe("fast");
        expect((await retrieve(little, ask, shared)).body.mode).toBe("exact");
      } finally {
        await shared.close();
      }
    },
  );
});
