import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { composeSystem, type System } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { silentLogger } from "../../src/lib/logger";

// The zero-config path: no DATABASE_URL → embedded PGlite with its vector extension, and the
// offline embedder (no network). Same migrations, same queries.
let system: System;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  system = await composeSystem(loadConfig({ MEMSTREAM_DATA_DIR: "memory://" }), silentLogger);
  app = createApp(system.app);
}, 120_000);
afterAll(() => system.close());

const post = (path: string, body: unknown) =>
  app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("zero-config (PGlite + offline embedder)", () => {
  it("runs on embedded Postgres with the offline model", () => {
    expect(system.database.kind).toBe("pglite");
    expect(system.providers.embedder.modelId).toBe("use-lite-512");
  });

  it("stores, embeds a query offline and ranks by relevance", async () => {
    const texts = [
      "The build failed on the main branch",
      "We had pizza for lunch",
      "The cat sleeps on the sofa",
    ];
    const vectors = await system.providers.embedder.embed(texts);
    const res = await post("/v1/agents/npc-1/memories", {
      memories: texts.map((description, i) => ({ description, importance: 5, embedding: vectors[i] })),
    });
    expect(res.status).toBe(201);
    const ranked = await post("/v1/agents/npc-1/retrieve", {
      query: "the CI build is broken",
      weights: { recency: 0, importance: 0 },
    });
    const body = (await ranked.json()) as {
      memories: { description: string; scores: { relevance: number } }[];
    };
    expect(body.memories.map((m) => m.description)[0]).toBe("The build failed on the main branch");
    expect(body.memories[0]?.scores.relevance).toBe(1);
    // Lexical and hybrid relevance run on PGlite too (generated tsvector column, English config).
    for (const relevance of ["lexical", "hybrid"]) {
      const res = await post("/v1/agents/npc-1/retrieve", {
        query: "pizza at lunch",
        relevance,
        weights: { recency: 0, importance: 0 },
      });
      expect(res.status).toBe(200);
      const top = (
        (await res.json()) as { memories: { description: string; scores: { relevance: number } }[] }
      ).memories[0];
      expect(top).toMatchObject({ description: "We had pizza for lunch", scores: { relevance: 1 } });
    }
    const ready = await app.request("/readyz");
    expect(ready.status).toBe(200);
  });

  it("stores a batch over 1 MiB with its vectors whole (parsed in the body thread, vectors sent as text in parts)", async () => {
    const texts = ["The build failed on the main branch", "We had pizza for lunch"];
    const [build, pizza] = (await system.providers.embedder.embed(texts)) as number[][];
    // 300 × 512 numbers written out in full: ~1.6 MB of body, and of vector text on PGlite.
    const memories = Array.from({ length: 300 }, (_, i) => ({
      description: `${texts[i % 2]} (${i})`,
      importance: 5,
      embedding: (i % 2 === 0 ? build : pizza)?.map((x) => x + 1e-9),
    }));
    const body = JSON.stringify({ memories });
    expect(body.length).toBeGreaterThan(1.5 * 1024 * 1024);
    const res = await app.request("/v1/agents/npc-large/memories", {
      method: "POST",
      headers: { "content-type": "application/json", prefer: "return=minimal" },
      body,
    });
    expect(res.status).toBe(201);
    const stats = await app.request("/v1/agents/npc-large/stats");
    expect(((await stats.json()) as { embedding: { ready: number } }).embedding.ready).toBe(300);
    const ranked = await post("/v1/agents/npc-large/retrieve", {
      query: "the CI build is broken",
      relevance: "vector",
      weights: { recency: 0, importance: 0 },
    });
    const found = ((await ranked.json()) as { memories: { description: string }[] }).memories;
    expect(found[0]?.description).toMatch(/^The build failed/);
  });
});
