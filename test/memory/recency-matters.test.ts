import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noEnrichment } from "../../src/memory/deps";
import { uniq } from "../support/env";
import { firstKnowledgeUpdateCases, type KnowledgeCase, KU_NOW } from "../support/knowledge-updates";
import { startTestSystem, type TestSystem } from "../support/system";

// The service default must keep recency meaningful while favouring relevance over months-long
// streams (docs/adr/0014): a retrieve with no ranking fields ranks a newer fact above the older
// one it replaces, and a memory accessed a minute ago above an identical one from last month.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({ env: { EMBEDDING_PROVIDER: "offline" }, enrichment: noEnrichment });
});
afterAll(() => t.close());

const path = (agent: string) => `/v1/agents/${encodeURIComponent(agent)}`;

/** Stores one case in its own agent with offline vectors; returns the agent id. */
async function store(c: KnowledgeCase, vectors: Map<string, number[]>): Promise<string> {
  const agent = uniq("ku");
  const items = [{ ...c.old, importance: 5 }, { ...c.new, importance: 5 }, ...c.fillers];
  const res = await t.call("POST", `${path(agent)}/memories`, {
    memories: items.map((m) => ({
      description: m.text,
      createdAt: m.at,
      importance: m.importance,
      embedding: vectors.get(m.text),
    })),
  });
  expect(res.status).toBe(201);
  return agent;
}

describe("recency still matters under the default ranking", () => {
  it("ranks the newer fact above the one it replaced in ≥ 90 % of 60 generated knowledge updates", async () => {
    const cases = firstKnowledgeUpdateCases(60);
    const texts = [
      ...new Set(cases.flatMap((c) => [c.old.text, c.new.text, ...c.fillers.map((f) => f.text)])),
    ];
    const embedded = await t.system.providers.embedder.embed(texts);
    const vectors = new Map(texts.map((x, i) => [x, embedded[i] as number[]]));
    const agents = await Promise.all(cases.map((c) => store(c, vectors)));
    let newerFirst = 0;
    for (const [i, c] of cases.entries()) {
      const res = await t.call("POST", `${path(agents[i] as string)}/retrieve`, {
        query: c.question,
        now: KU_NOW,
        k: 12,
        touch: false,
      });
      expect(res.status).toBe(200);
      const order = ((await res.json()) as { memories: { description: string }[] }).memories.map(
        (m) => m.description,
      );
      expect(order).toContain(c.new.text);
      if (order.indexOf(c.new.text) < order.indexOf(c.old.text)) newerFirst++;
    }
    expect(newerFirst / cases.length).toBeGreaterThanOrEqual(0.9);
    // 60 agents and 700 vectors: generous under a loaded machine; nothing here is timed.
  }, 300_000);

  it("a memory accessed a minute ago outranks an otherwise identical one from last month", async () => {
    const agent = uniq("minute");
    const text = "Deploys to production need two approvals";
    const [vector] = await t.system.providers.embedder.embed([text]);
    const res = await t.call("POST", `${path(agent)}/memories`, {
      memories: ["2026-06-01T12:00:00.000Z", "2026-06-30T23:59:00.000Z"].map((at) => ({
        description: text,
        createdAt: at,
        importance: 6,
        embedding: vector,
        metadata: { at },
      })),
    });
    expect(res.status).toBe(201);
    const got = await t.call("POST", `${path(agent)}/retrieve`, {
      query: "how many approvals does a deploy need?",
      now: "2026-07-01T00:00:00.000Z",
      touch: false,
    });
    const body = (await got.json()) as { memories: { metadata: { at: string }; score: number }[] };
    expect(body.memories.map((m) => m.metadata.at)).toEqual([
      "2026-06-30T23:59:00.000Z",
      "2026-06-01T12:00:00.000Z",
    ]);
    expect(body.memories[0]?.score).toBeGreaterThan(body.memories[1]?.score ?? Number.POSITIVE_INFINITY);
  });
});
