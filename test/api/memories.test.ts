import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

type ErrorBody = {
  error: { code: string; message: string; requestId: string; details?: { field?: string } };
};
type Mem = {
  id: string;
  description: string;
  kind: string;
  createdAt: string;
  lastAccessedAt: string;
  importance: number | null;
  embeddingModel: string | null;
  metadata: Record<string, unknown>;
  status: { importance: string; embedding: string };
};

const agentPath = (a: string) => `/v1/agents/${encodeURIComponent(a)}`;

async function expectError(res: Response, status: number, code: string, field?: string) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as ErrorBody;
  expect(body.error.code).toBe(code);
  expect(body.error.requestId).toBeTruthy();
  expect(body.error.message.length).toBeGreaterThan(0);
  if (field) expect(body.error.details?.field).toBe(field);
  return body;
}

describe("POST memories", () => {
  it("stores one memory at once, pending what the caller did not supply", async () => {
    const agent = uniq("github:acme/api");
    const res = await t.call("POST", `${agentPath(agent)}/memories`, {
      description: "alice opened pull request #42",
      metadata: { repo: "acme/api" },
    });
    expect(res.status).toBe(201);
    const m = (await res.json()) as Mem;
    expect(m.id).toMatch(/^mem_[0-9a-z]{20}$/);
    expect(m.kind).toBe("observation");
    expect(m.lastAccessedAt).toBe(m.createdAt);
    expect(m.status).toEqual({ importance: "pending", embedding: "pending" });
    expect(m.importance).toBeNull();
    const got = (await (await t.call("GET", `${agentPath(agent)}/memories/${m.id}`)).json()) as Mem;
    expect(got).toEqual(m);
  });

  it("stores caller-supplied importance and embedding as given (ready, no provider call)", async () => {
    const agent = uniq("given");
    const before = t.stub.calls.embeddings + t.stub.calls.chat;
    const vector = Array.from({ length: 64 }, (_, i) => (i === 3 ? 1 : 0));
    const res = await t.call("POST", `${agentPath(agent)}/memories`, {
      description: "imported",
      importance: 7,
      embedding: vector,
      createdAt: "2020-02-02T10:00:00+02:00",
    });
    const m = (await res.json()) as Mem;
    expect(m.status).toEqual({ importance: "ready", embedding: "ready" });
    expect(m.importance).toBe(7);
    expect(m.embeddingModel).toBe("openai:stub-embed@64");
    expect(m.createdAt).toBe("2020-02-02T08:00:00.000Z");
    expect(t.stub.calls.embeddings + t.stub.calls.chat).toBe(before);
  });

  it("stores a batch of 1000 in one go, and refuses 1001", async () => {
    const agent = uniq("batch");
    const memories = Array.from({ length: 1000 }, (_, i) => ({
      description: `event ${i}`,
      importance: 1 + (i % 10),
    }));
    const res = await t.call("POST", `${agentPath(agent)}/memories`, { memories });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { memories: Mem[] }).memories).toHaveLength(1000);
    const over = await t.call("POST", `${agentPath(agent)}/memories`, {
      memories: [...memories, { description: "x" }],
    });
    await expectError(over, 400, "invalid_request", "body.memories");
  });

  it("stores a batch's vectors as given (float4), each under its own model, with metadata and citations", async () => {
    const agent = uniq("vectors");
    const vec = (seed: number, dims: number) =>
      Array.from({ length: dims }, (_, i) => Math.sin(seed * 7.3 + i) * 10 ** ((i % 7) - 3));
    const items = Array.from({ length: 300 }, (_, i) => ({
      description: `vector ${i} ✓`,
      embedding: vec(i, i % 2 ? 64 : 5),
      ...(i % 2 ? {} : { embeddingModel: "other-5d" }),
      metadata: { i, tags: ["a", i] },
    }));
    const res = await t.call("POST", `${agentPath(agent)}/memories`, { memories: items });
    expect(res.status).toBe(201);
    const stored = ((await res.json()) as { memories: Mem[] }).memories;
    expect(stored.map((m) => m.embeddingModel)).toEqual(
      items.map((_, i) => (i % 2 ? "openai:stub-embed@64" : "other-5d")),
    );
    expect(stored[3]?.metadata).toEqual({ i: 3, tags: ["a", 3] });
    const rows = await queryRows<{ id: string; model: string; dimensions: number; e: string }>(
      t.system.database.db,
      sql`SELECT memory_id AS id, model, dimensions, embedding::text AS e FROM memory_embeddings WHERE agent_id = ${agent}`,
    );
    expect(rows).toHaveLength(300);
    const byId = new Map(rows.map((r) => [r.id, r]));
    stored.forEach((m, i) => {
      const row = byId.get(m.id);
      expect(row?.model).toBe(m.embeddingModel);
      expect(row?.dimensions).toBe(items[i]?.embedding.length);
      const back = (row?.e ?? "[]")
        .slice(1, -1)
        .split(",")
        .map((x) => Math.fround(Number(x)));
      expect(back).toEqual(items[i]?.embedding.map((x) => Math.fround(x)));
    });
    const got = (await (await t.call("GET", `${agentPath(agent)}/memories/${stored[3]?.id}`)).json()) as Mem;
    expect(got).toEqual(stored[3]);
    // A reflection in the same batch may cite them.
    const cites = await t.call("POST", `${agentPath(agent)}/memories`, {
      memories: [{ description: "insight", kind: "reflection", citations: [stored[0]?.id, stored[1]?.id] }],
    });
    expect(((await cites.json()) as { memories: { citations: string[] }[] }).memories[0]?.citations).toEqual([
      stored[0]?.id,
      stored[1]?.id,
    ]);
  });

  it("refuses vectors with a non-number, or beyond float4, naming the element", async () => {
    const agent = uniq("badvec");
    for (const [embedding, element, word] of [
      [[1, "2", 3], 1, "finite number"],
      [[1, 2, 1e39], 2, "float4"],
    ] as const) {
      const res = await t.call("POST", `${agentPath(agent)}/memories`, {
        memories: [{ description: "ok" }, { description: "bad", embedding, embeddingModel: "m3" }],
      });
      const body = await expectError(res, 400, "invalid_request", `body.memories.1.embedding.${element}`);
      expect(body.error.message).toContain(word);
    }
  });

  it("answers only the ids, in input order, when the client prefers return=minimal", async () => {
    const agent = uniq("minimal");
    const memories = Array.from({ length: 5 }, (_, i) => ({
      description: `lean ${i}`,
      importance: 3,
      embedding: Array.from({ length: 64 }, (_, j) => Math.cos(i + j)),
    }));
    const res = await t.call(
      "POST",
      `${agentPath(agent)}/memories`,
      { memories },
      { prefer: 'respond-async, RETURN = "minimal"' },
    );
    expect(res.status).toBe(201);
    expect(res.headers.get("preference-applied")).toBe("return=minimal");
    const { ids, ...rest } = (await res.json()) as { ids: string[] };
    expect(rest).toEqual({});
    expect(ids).toHaveLength(5);
    for (const [i, id] of ids.entries()) {
      const got = (await (await t.call("GET", `${agentPath(agent)}/memories/${id}`)).json()) as Mem;
      expect(got.description).toBe(`lean ${i}`);
      expect(got.status).toEqual({ importance: "ready", embedding: "ready" });
    }
    const one = await t.call(
      "POST",
      `${agentPath(agent)}/memories`,
      { description: "single" },
      { prefer: "return=minimal" },
    );
    expect(Object.keys((await one.json()) as object)).toEqual(["id"]);
    const full = await t.call(
      "POST",
      `${agentPath(agent)}/memories`,
      { memories: [{ description: "full" }] },
      { prefer: "return=representation" },
    );
    expect(full.headers.get("preference-applied")).toBeNull();
    expect(((await full.json()) as { memories: Mem[] }).memories[0]?.description).toBe("full");
  });

  it("a 1,000-memory batch with one vector of the wrong dimension stores nothing, naming it", async () => {
    const agent = uniq("dims");
    const memories = Array.from({ length: 1000 }, (_, i) => ({
      description: `v ${i}`,
      embedding: Array.from({ length: i === 777 ? 63 : 64 }, (_, j) => Math.sin(i * j + 1)),
    }));
    const res = await t.call("POST", `${agentPath(agent)}/memories`, { memories });
    await expectError(res, 400, "invalid_request", "memories[777].embedding");
    const stats = (await (await t.call("GET", `${agentPath(agent)}/stats`)).json()) as { total: number };
    expect(stats.total).toBe(0);
  });

  it("stores vectors sent as base64 float32 (OpenAI's encoding) exactly as float4", async () => {
    const agent = uniq("b64");
    const f32 = (seed: number, dims: number) =>
      Float32Array.from({ length: dims }, (_, i) => Math.sin(seed * 3.1 + i) * 10 ** ((i % 5) - 2));
    const b64 = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64");
    const vectors = Array.from({ length: 20 }, (_, i) => f32(i, i % 2 ? 64 : 5));
    const res = await t.call("POST", `${agentPath(agent)}/memories`, {
      memories: vectors.map((v, i) => ({
        description: `b64 ${i}`,
        embedding: i === 0 ? Array.from(v) : b64(v),
        ...(i % 2 ? {} : { embeddingModel: "other-5d" }),
      })),
    });
    expect(res.status).toBe(201);
    const stored = ((await res.json()) as { memories: Mem[] }).memories;
    const rows = await queryRows<{ id: string; dimensions: number; e: string }>(
      t.system.database.db,
      sql`SELECT memory_id AS id, dimensions, embedding::text AS e FROM memory_embeddings WHERE agent_id = ${agent}`,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    stored.forEach((m, i) => {
      const row = byId.get(m.id);
      expect(row?.dimensions).toBe(vectors[i]?.length);
      const back = (row?.e ?? "[]").slice(1, -1).split(",").map(Number);
      expect(Float32Array.from(back)).toEqual(vectors[i]);
    });
  });

  it("refuses base64 vectors that are malformed, not float32-sized, non-finite or all zeros, naming the field", async () => {
    const agent = uniq("b64bad");
    const enc = (v: number[]) => Buffer.from(Float32Array.from(v).buffer).toString("base64");
    for (const [embedding, field, word] of [
      ["not base64!", "body.memories.1.embedding", "base64"],
      ["not base64!!", "body.memories.1.embedding", "base64"],
      [Buffer.from([1, 2, 3, 4, 5, 6]).toString("base64"), "body.memories.1.embedding", "multiple of 4"],
      [enc([1, 2, 3, Number.NaN, 5]), "body.memories.1.embedding.3", "finite"],
      [enc([1, Number.POSITIVE_INFINITY]), "body.memories.1.embedding.1", "finite"],
      ["", "body.memories.1.embedding", "at least 1"],
    ] as const) {
      const res = await t.call("POST", `${agentPath(agent)}/memories`, {
        memories: [{ description: "ok" }, { description: "bad", embedding, embeddingModel: "m" }],
      });
      const body = await expectError(res, 400, "invalid_request", field);
      expect(body.error.message).toContain(word);
    }
    const zeros = await t.call("POST", `${agentPath(agent)}/memories`, {
      embedding: enc([0, 0, 0]),
      embeddingModel: "m",
      description: "zeros",
    });
    await expectError(zeros, 400, "invalid_request", "body.embedding");
    const wrongDims = await t.call("POST", `${agentPath(agent)}/memories`, {
      embedding: enc([1, 2, 3]),
      description: "configured model is 64-d",
    });
    await expectError(wrongDims, 400, "invalid_request", "body.embedding");
    const stats = (await (await t.call("GET", `${agentPath(agent)}/stats`)).json()) as { total: number };
    expect(stats.total).toBe(0);
  });

  it("a batch with one bad item stores nothing", async () => {
    const agent = uniq("atomic");
    const res = await t.call("POST", `${agentPath(agent)}/memories`, {
      memories: [
        { description: "fine" },
        { description: "cites a ghost", kind: "reflection", citations: ["mem_doesnotexist"] },
      ],
    });
    await expectError(res, 400, "invalid_request", "citations");
    const stats = (await (await t.call("GET", `${agentPath(agent)}/stats`)).json()) as { total: number };
    expect(stats.total).toBe(0);
  });

  it("reflections may cite memories of the same agent only", async () => {
    const a = uniq("cite-a");
    const b = uniq("cite-b");
    const src = (await (
      await t.call("POST", `${agentPath(a)}/memories`, { description: "evidence" })
    ).json()) as Mem;
    const ok = await t.call("POST", `${agentPath(a)}/memories`, {
      description: "insight",
      kind: "reflection",
      citations: [src.id],
    });
    expect(ok.status).toBe(201);
    const cross = await t.call("POST", `${agentPath(b)}/memories`, {
      description: "steal",
      kind: "reflection",
      citations: [src.id],
    });
    await expectError(cross, 400, "invalid_request", "citations");
  });

  it.each([
    [{ description: "" }, "body.description"],
    [{ description: "x".repeat(8001) }, "body.description"],
    [{ description: "ok", importance: 11 }, "body.importance"],
    [{ description: "ok", importance: 2.5 }, "body.importance"],
    [{ description: "ok", kind: "dream" }, "body.kind"],
    [{ description: "ok", createdAt: "yesterday" }, "body.createdAt"],
    [{ description: "ok", surprise: true }, "body"],
    [{ description: "ok", embedding: [1, 2, 3] }, "body.embedding"],
    [{ description: "ok", embedding: [0, 0, 0], embeddingModel: "m3" }, "body.embedding"],
    [{ description: "ok", embeddingModel: "m3" }, "body.embeddingModel"],
  ])("rejects %j naming %s", async (body, field) => {
    const res = await t.call("POST", `${agentPath(uniq("bad"))}/memories`, body);
    const err = await expectError(res, 400, "invalid_request");
    expect(
      err.error.details?.field?.startsWith(field) || err.error.message.includes(field.replace("body.", "")),
    ).toBe(true);
  });

  it("rejects malformed JSON and a body over the size limit", async () => {
    const path = `${agentPath(uniq("raw"))}/memories`;
    const bad = await t.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    await expectError(bad, 400, "invalid_request");
    const huge = await t.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "x".repeat(33 * 1024 * 1024) }),
    });
    await expectError(huge, 413, "payload_too_large");
  });

  it("rejects a malformed agent id", async () => {
    await expectError(await t.call("GET", "/v1/agents/-bad!/memories"), 400, "invalid_request", "agentId");
  });
});

describe("list, get, patch, delete, erase, stats", () => {
  it("lists newest first with a cursor and filters", async () => {
    const agent = uniq("list");
    const memories = Array.from({ length: 7 }, (_, i) => ({
      description: `m${i}`,
      createdAt: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
      kind: i === 6 ? "plan" : "observation",
      metadata: { even: i % 2 === 0 },
    }));
    await t.call("POST", `${agentPath(agent)}/memories`, { memories });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `?limit=3&cursor=${cursor}` : "?limit=3";
      const page = (await (await t.call("GET", `${agentPath(agent)}/memories${q}`)).json()) as {
        memories: Mem[];
        nextCursor: string | null;
      };
      seen.push(...page.memories.map((m) => m.description));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(["m6", "m5", "m4", "m3", "m2", "m1", "m0"]);

    const filtered = (await (
      await t.call(
        "GET",
        `${agentPath(agent)}/memories?kind=observation&since=2025-01-02T00:00:00Z&until=2025-01-05T00:00:00Z&metadata=${encodeURIComponent('{"even":true}')}`,
      )
    ).json()) as { memories: Mem[] };
    expect(filtered.memories.map((m) => m.description)).toEqual(["m4", "m2"]);
    await expectError(
      await t.call("GET", `${agentPath(agent)}/memories?cursor=garbage`),
      400,
      "invalid_request",
      "cursor",
    );
    await expectError(
      await t.call("GET", `${agentPath(agent)}/memories?metadata=[1]`),
      400,
      "invalid_request",
      "query.metadata",
    );
  });

  it("patching the description makes enrichment pending again and drops stale vectors", async () => {
    const agent = uniq("patch");
    const vector = Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0));
    const m = (await (
      await t.call("POST", `${agentPath(agent)}/memories`, {
        description: "old text",
        importance: 4,
        embedding: vector,
      })
    ).json()) as Mem;
    const same = (await (
      await t.call("PATCH", `${agentPath(agent)}/memories/${m.id}`, { metadata: { tag: 1 } })
    ).json()) as Mem;
    expect(same.status).toEqual({ importance: "ready", embedding: "ready" });
    expect(same.metadata).toEqual({ tag: 1 });
    const changed = (await (
      await t.call("PATCH", `${agentPath(agent)}/memories/${m.id}`, { description: "new text" })
    ).json()) as Mem;
    expect(changed.description).toBe("new text");
    expect(changed.status).toEqual({ importance: "pending", embedding: "pending" });
    expect(changed.importance).toBeNull();
    expect(changed.embeddingModel).toBeNull();
    // The stale vector is gone (a retrieve may embed the new text inline, but never stores it).
    await t.call("POST", `${agentPath(agent)}/retrieve`, { queryEmbedding: vector, touch: false });
    const vectors = await t.system.database.db.query.memoryEmbeddings.findMany({
      where: (e, { eq }) => eq(e.memoryId, m.id),
    });
    expect(vectors).toEqual([]);
  });

  it("unknown or foreign memories are 404; delete is final", async () => {
    const a = uniq("del-a");
    const m = (await (
      await t.call("POST", `${agentPath(a)}/memories`, { description: "bye" })
    ).json()) as Mem;
    await expectError(await t.call("GET", `${agentPath(uniq("del-b"))}/memories/${m.id}`), 404, "not_found");
    await expectError(
      await t.call("PATCH", `${agentPath(a)}/memories/mem_nope`, { importance: 3 }),
      404,
      "not_found",
    );
    expect((await t.call("DELETE", `${agentPath(a)}/memories/${m.id}`)).status).toBe(200);
    await expectError(await t.call("DELETE", `${agentPath(a)}/memories/${m.id}`), 404, "not_found");
    await expectError(await t.call("GET", `${agentPath(a)}/memories/${m.id}`), 404, "not_found");
  });

  it("stats count kinds and states; erasing an agent empties only its stream", async () => {
    const a = uniq("stats-a");
    const b = uniq("stats-b");
    await t.call("POST", `${agentPath(a)}/memories`, {
      memories: [
        { description: "o1", createdAt: "2024-01-01T00:00:00Z" },
        { description: "o2", importance: 3, createdAt: "2024-03-01T00:00:00Z" },
        { description: "p1", kind: "plan", createdAt: "2024-02-01T00:00:00Z" },
      ],
    });
    await t.call("POST", `${agentPath(b)}/memories`, { description: "other agent" });
    const stats = await (await t.call("GET", `${agentPath(a)}/stats`)).json();
    expect(stats).toEqual({
      agentId: a,
      total: 3,
      byKind: { observation: 2, reflection: 0, plan: 1, document: 0, outcome: 0, lesson: 0, summary: 0 },
      tiers: { recent: 3, summary: 0, archive: 0 },
      importance: { pending: 2, ready: 1, failed: 0 },
      embedding: { pending: 3, ready: 0, failed: 0 },
      oldest: "2024-01-01T00:00:00.000Z",
      newest: "2024-03-01T00:00:00.000Z",
      forgotten: 0,
      retainedAt: null,
      // No LLM calls, no limits (test/jobs/llm-budget.test.ts spends them).
      llmBudget: expect.objectContaining({
        limits: { tokens: null, calls: null },
        spent: { tokens: 0, promptTokens: 0, completionTokens: 0, calls: 0 },
        exhausted: false,
      }),
    });
    expect(await (await t.call("DELETE", agentPath(a))).json()).toEqual({
      deleted: 3,
      erasureId: expect.stringMatching(/^era_/),
    });
    expect(((await (await t.call("GET", `${agentPath(a)}/stats`)).json()) as { total: number }).total).toBe(
      0,
    );
    expect(((await (await t.call("GET", `${agentPath(b)}/stats`)).json()) as { total: number }).total).toBe(
      1,
    );
  });
});

describe("retrieve input", () => {
  it.each([
    [{ k: 0 }, "body.k"],
    [{ k: 201 }, "body.k"],
    [{ decay: 1.5 }, "body.decay"],
    [{ weights: { recency: -1 } }, "body.weights.recency"],
    [{ now: "not a time" }, "body.now"],
    [{ queryEmbedding: [1, 2] }, "queryEmbedding"],
  ])("rejects %j naming %s", async (body, field) => {
    const res = await t.call("POST", `${agentPath(uniq("rin"))}/retrieve`, body);
    await expectError(res, 400, "invalid_request", field);
  });
});
