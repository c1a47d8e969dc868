import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHnswIndexSql, forgetHnswIndexes } from "../../src/memory/retrieve/hnsw-index";
import { uniq } from "../support/env";
import { type RefMemory, referenceRanking } from "../support/reference-ranking";
import { startTestSystem, type TestSystem } from "../support/system";

const NOW = "2026-01-10T12:00:00.000Z";
const hoursAgo = (h: number) => new Date(Date.parse(NOW) - h * 3_600_000).toISOString();
// A model of this file's own, so its HNSW index never changes another file's plans.
const MODEL = uniq("fast-3d");
const OTHER = uniq("plain-3d");

let t: TestSystem;
beforeAll(async () => {
  // A low threshold lets `auto` choose the fast path on a test-sized stream.
  t = await startTestSystem({ env: { MEMSTREAM_FAST_RETRIEVE_THRESHOLD: "20" } });
  const db = t.system.database.db;
  await db.execute(
    createHnswIndexSql({ model: MODEL, dimensions: 3, storage: "vector" }, { m: 16, efConstruction: 64 }),
  );
  forgetHnswIndexes(db);
});
afterAll(() => t.close());

type Item = { text: string; at: string; importance?: number; vector?: number[]; model?: string };
type Result = { id: string; score: number; lastAccessedAt: string };
type Body = { memories: Result[]; mode: string };

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

async function retrieve(agent: string, body: object): Promise<{ status: number; body: Body }> {
  const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
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

  it("auto picks fast above the threshold with an index, exact below it or without one", async () => {
    const big = uniq("auto-big");
    await seed(big, items);
    const small = uniq("auto-small");
    await seed(small, items.slice(0, 10));
    const other = uniq("auto-noindex");
    await seed(
      other,
      items.map((s) => ({ ...s, model: OTHER })),
    );
    const ask = (agent: string, model: string) =>
      retrieve(agent, { queryEmbedding: query, embeddingModel: model });
    expect((await ask(big, MODEL)).body.mode).toBe("fast");
    expect((await ask(small, MODEL)).body.mode).toBe("exact");
    expect((await ask(other, OTHER)).body.mode).toBe("exact");
    // Filters keep the exact path in auto mode.
    expect(
      (await retrieve(big, { queryEmbedding: query, embeddingModel: MODEL, kinds: ["observation"] })).body
        .mode,
    ).toBe("exact");
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
});
