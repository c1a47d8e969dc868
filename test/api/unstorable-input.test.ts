import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

/** Input Postgres cannot hold answers 400 naming the field, never a 500 from the database. */
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

const agent = uniq("unstorable");
const base = `/v1/agents/${agent}`;

async function expect400(res: Response, field: string) {
  const body = (await res.json()) as {
    error: { code: string; message: string; details?: { field?: string } };
  };
  expect(res.status, body.error.message).toBe(400);
  expect(body.error.code).toBe("invalid_request");
  expect(body.error.details?.field).toBe(field);
  return body.error.message;
}

describe("characters text and jsonb cannot hold", () => {
  it("NUL or a lone surrogate in a description, metadata value or key, citation, model id", async () => {
    const cases: [unknown, string][] = [
      [{ description: "a\u0000b" }, "body.description"],
      [{ description: "a\ud800b" }, "body.description"],
      [{ description: "x", metadata: { note: "a\u0000" } }, "body.metadata.note"],
      [{ description: "x", metadata: { deep: [{ k: "\udc00" }] } }, "body.metadata.deep.0.k"],
      [{ description: "x", metadata: { "k\u0000": 1 } }, "body.metadata.k\u0000"],
      [{ description: "x", citations: ["mem_\u0000"] }, "body.citations.0"],
      [{ description: "x", embedding: [1], embeddingModel: "m\u0000" }, "body.embeddingModel"],
    ];
    for (const [body, field] of cases) {
      const message = await expect400(await t.call("POST", `${base}/memories`, body), field);
      expect(message).toMatch(/NUL|surrogate/);
    }
  });

  it("in a list metadata filter, a cursor, a retrieve query or filter, a memory id in the path", async () => {
    const filter = encodeURIComponent(JSON.stringify({ a: "\u0000" }));
    await expect400(await t.call("GET", `${base}/memories?metadata=${filter}`), "query.metadata.a");
    await expect400(await t.call("GET", `${base}/memories?cursor=%00`), "query.cursor");
    await expect400(await t.call("POST", `${base}/retrieve`, { query: "a\u0000" }), "body.query");
    await expect400(
      await t.call("POST", `${base}/retrieve`, { filters: { metadata: { a: "\ud800" } } }),
      "body.filters.metadata.a",
    );
    await expect400(await t.call("GET", `${base}/memories/mem_%00`), "param.id");
    await expect400(await t.call("PATCH", `${base}/memories/mem_%00`, { importance: 2 }), "param.id");
  });

  it("a cursor tampered to carry a year Postgres cannot hold", async () => {
    const cursor = Buffer.from(JSON.stringify(["0000-01-01T00:00:00Z", "mem_x"])).toString("base64url");
    await expect400(await t.call("GET", `${base}/memories?cursor=${cursor}`), "cursor");
  });
});

describe("numbers and times beyond Postgres' types", () => {
  it("years outside 0001-9999 once in UTC", async () => {
    for (const createdAt of [
      "0000-06-01T00:00:00Z",
      "0001-01-01T00:00:00+01:00",
      "9999-12-31T23:59:59-01:00",
    ]) {
      await expect400(
        await t.call("POST", `${base}/memories`, { description: "x", createdAt }),
        "body.createdAt",
      );
    }
    await expect400(await t.call("GET", `${base}/memories?since=0000-01-01T00:00:00Z`), "query.since");
    await expect400(await t.call("POST", `${base}/retrieve`, { now: "0000-01-01T00:00:00Z" }), "body.now");
    const ok = await t.call("POST", `${base}/memories`, {
      description: "x",
      createdAt: "0001-01-01T00:00:00Z",
    });
    expect(ok.status).toBe(201);
  });

  it("a vector value beyond float4, a weight that would underflow, metadata nested too deep", async () => {
    await expect400(
      await t.call("POST", `${base}/memories`, { description: "x", embedding: [1e39] }),
      "body.embedding.0",
    );
    await expect400(
      await t.call("POST", `${base}/retrieve`, { queryEmbedding: [-1e39] }),
      "body.queryEmbedding.0",
    );
    await expect400(
      await t.call("POST", `${base}/retrieve`, { weights: { recency: 1e-320 } }),
      "body.weights.recency",
    );
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { a: deep };
    const message = await expect400(
      await t.call("POST", `${base}/memories`, { description: "x", metadata: deep }),
      `body.metadata${".a".repeat(32)}`,
    );
    expect(message).toMatch(/deeper than 32/);
  });

  it("a vector whose values all round to 0 in float4 is refused like an all-zero one", async () => {
    const embedding = Array.from({ length: 64 }, () => 1e-46);
    await expect400(
      await t.call("POST", `${base}/memories`, { description: "x", embedding }),
      "body.embedding",
    );
  });

  it("ranks memories centuries old and with a tiny decay (recency would underflow float8)", async () => {
    const a = uniq("ancient");
    const res = await t.call("POST", `/v1/agents/${a}/memories`, {
      memories: [
        { description: "old", createdAt: "1200-01-01T00:00:00Z", importance: 2 },
        { description: "new", createdAt: "2026-01-01T00:00:00Z", importance: 9 },
      ],
    });
    expect(res.status).toBe(201);
    for (const body of [
      { now: "9999-12-31T00:00:00Z", touch: false },
      { decay: 1e-300, now: "2026-06-01T00:00:00Z", touch: false },
      { decay: 5e-324, weights: { recency: 100, importance: 1e-6 }, touch: false },
    ]) {
      const r = await t.call("POST", `/v1/agents/${a}/retrieve`, body);
      expect(r.status, JSON.stringify(body)).toBe(200);
      const { memories } = (await r.json()) as { memories: { description: string }[] };
      // Recency ties at its floor, so the more important memory leads.
      expect(memories.map((m) => m.description)).toEqual(["new", "old"]);
    }
  });
});
