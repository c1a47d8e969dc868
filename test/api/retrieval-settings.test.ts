import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// Per-agent retrieve defaults (PUT /v1/agents/{agentId}/settings `retrieval`) and the `ranking`
// the retrieve answer reports: request values win, then the agent's, then the preset's.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({ env: { MEMSTREAM_API_KEYS: "k-admin" } });
});
afterAll(() => t.close());

const auth = { authorization: "Bearer k-admin" };
const path = (agent: string) => `/v1/agents/${encodeURIComponent(agent)}`;
const NOW = "2026-06-01T12:00:00.000Z";

type Ranked = {
  memories: { description: string }[];
  ranking: {
    preset: string;
    weights: Record<string, number>;
    decay: number;
    recencyUnit: string;
    relevance: string;
    source: Record<string, string>;
  };
};

async function retrieve(agent: string, body: object): Promise<Ranked> {
  const res = await t.call("POST", `${path(agent)}/retrieve`, { now: NOW, touch: false, ...body }, auth);
  expect(res.status).toBe(200);
  return (await res.json()) as Ranked;
}

/** Old and important vs. new and dull: importance-only and recency-only rankings disagree. */
async function seed(agent: string) {
  const res = await t.call(
    "POST",
    `${path(agent)}/memories`,
    {
      memories: [
        { description: "old but important", createdAt: "2026-05-01T12:00:00.000Z", importance: 10 },
        { description: "new but dull", createdAt: "2026-06-01T11:00:00.000Z", importance: 1 },
      ],
    },
    auth,
  );
  expect(res.status).toBe(201);
}

const order = (r: Ranked) => r.memories.map((m) => m.description);

describe("agent retrieve defaults", () => {
  it("apply to fields a request leaves out; request values win; the answer says which ranked it", async () => {
    const agent = uniq("defaults");
    await seed(agent);
    const put = await t.call(
      "PUT",
      `${path(agent)}/settings`,
      { retrieval: { weights: { recency: 0, relevance: 0 }, recencyUnit: "day" } },
      auth,
    );
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({
      retrieval: { weights: { recency: 0, relevance: 0 }, recencyUnit: "day" },
      effectiveRetrieval: {
        weights: { recency: 0, importance: 0.1, relevance: 0 },
        recencyUnit: "day",
        source: { weights: "agent", recencyUnit: "agent", decay: "preset", preset: "default" },
      },
    });

    const byAgent = await retrieve(agent, {});
    expect(order(byAgent)).toEqual(["old but important", "new but dull"]);
    expect(byAgent.ranking).toMatchObject({
      weights: { recency: 0, importance: 0.1, relevance: 0 },
      recencyUnit: "day",
      source: { weights: "agent", recencyUnit: "agent" },
    });

    // A request weight replaces the agent's for that weight only; the unit stays the agent's.
    const byRequest = await retrieve(agent, { weights: { importance: 0, recency: 1 } });
    expect(order(byRequest)).toEqual(["new but dull", "old but important"]);
    expect(byRequest.ranking).toMatchObject({
      weights: { recency: 1, importance: 0, relevance: 0 },
      recencyUnit: "day",
      source: { weights: "request", recencyUnit: "agent" },
    });

    // A request naming a preset gets that preset, not the agent's values mixed in.
    const paper = await retrieve(agent, { preset: "paper" });
    expect(paper.ranking).toMatchObject({
      preset: "paper",
      weights: { recency: 1, importance: 1, relevance: 1 },
      decay: 0.99,
      recencyUnit: "hour",
      relevance: "vector",
      source: { preset: "request", weights: "preset", recencyUnit: "preset" },
    });
  });

  it("an agent preset, GET, leaving retrieval out keeps it, null resets it", async () => {
    const agent = uniq("preset");
    await t.call("PUT", `${path(agent)}/settings`, { retrieval: { preset: "reference", decay: 0.9 } }, auth);
    expect((await retrieve(agent, {})).ranking).toMatchObject({
      preset: "reference",
      weights: { recency: 0.5, importance: 2, relevance: 3 },
      decay: 0.9,
      source: { preset: "agent", decay: "agent", weights: "preset" },
    });
    const kept = await t.call("PUT", `${path(agent)}/settings`, { reflectionThreshold: 7 }, auth);
    expect(await kept.json()).toMatchObject({
      reflectionThreshold: 7,
      retrieval: { preset: "reference", decay: 0.9 },
    });
    const reset = await t.call("PUT", `${path(agent)}/settings`, { retrieval: null }, auth);
    expect(await reset.json()).toMatchObject({ reflectionThreshold: 7, retrieval: null });
    const got = await t.call("GET", `${path(agent)}/settings`, undefined, auth);
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({
      retrieval: null,
      effectiveRetrieval: { source: { preset: "default", weights: "preset" } },
    });
    expect((await retrieve(agent, {})).ranking.source).toMatchObject({ preset: "default", decay: "preset" });
  });

  it("lexical relevance from a default falls back to vector without query text; asked for, it is a 400", async () => {
    const agent = uniq("lex");
    await seed(agent);
    await t.call("PUT", `${path(agent)}/settings`, { retrieval: { relevance: "lexical" } }, auth);
    expect((await retrieve(agent, { query: "important" })).ranking.relevance).toBe("lexical");
    expect((await retrieve(agent, {})).ranking.relevance).toBe("vector");
    const res = await t.call("POST", `${path(agent)}/retrieve`, { relevance: "hybrid" }, auth);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details?: { field?: string } } }).error.details?.field).toBe(
      "query",
    );
  });

  it.each([
    [{ retrieval: { recencyUnit: "year" } }, "body.retrieval.recencyUnit"],
    [{ retrieval: { preset: "mine" } }, "body.retrieval.preset"],
    [{ retrieval: { decay: 0 } }, "body.retrieval.decay"],
    [{ retrieval: { k: 5 } }, "body.retrieval"],
  ])("rejects %j naming %s", async (body, field) => {
    const res = await t.call("PUT", `${path(uniq("bad"))}/settings`, body, auth);
    expect(res.status).toBe(400);
    const err = (await res.json()) as { error: { code: string; details?: { field?: string } } };
    expect(err.error.code).toBe("invalid_request");
    expect(err.error.details?.field).toBe(field);
  });

  it("a retrieve with an unknown preset or unit is a 400 naming the field", async () => {
    for (const [body, field] of [
      [{ preset: "fastest" }, "body.preset"],
      [{ recencyUnit: "fortnight" }, "body.recencyUnit"],
    ] as const) {
      const res = await t.call("POST", `${path(uniq("bad"))}/retrieve`, body, auth);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { details?: { field?: string } } }).error.details?.field).toBe(
        field,
      );
    }
  });

  it("settings need a key", async () => {
    const agent = uniq("auth");
    expect((await t.call("GET", `${path(agent)}/settings`)).status).toBe(401);
    expect((await t.call("PUT", `${path(agent)}/settings`, { retrieval: null })).status).toBe(401);
  });
});
