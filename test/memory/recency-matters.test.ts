import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import {
  type KnowledgeCase,
  KU_NOW,
  knowledgeUpdateCases,
  passes,
  vectorsOf,
} from "../support/knowledge-updates";
import { startTestSystem, type TestSystem, without } from "../support/system";

// The service default ranks by what the question is about, and still knows which version of a
// fact is current (docs/adr/0026): with no ranking fields, a present-state question ranks the
// newest version of a fact above the ones it replaced, a past-state question ("before", "used
// to") finds the version it asks for above unrelated memories, and a memory accessed a minute ago
// ranks above an identical one from last month.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({
    env: { EMBEDDING_PROVIDER: "offline" },
    announce: without("memories.pending"),
  });
});
afterAll(() => t.close());

const path = (agent: string) => `/v1/agents/${encodeURIComponent(agent)}`;

/** Stores one case in its own agent with offline vectors; returns the agent id. */
async function store(c: KnowledgeCase, vectors: Map<string, number[]>): Promise<string> {
  const agent = uniq("ku");
  const items = [...c.versions.map((v) => ({ ...v, importance: 5 })), ...c.fillers];
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
  it("answers 120 generated knowledge updates: current-state and past-state questions, months and minutes apart, chains of three", async () => {
    const cases = knowledgeUpdateCases(120);
    const vectors = await vectorsOf(t.system.providers.embedder, cases);
    const agents = await Promise.all(cases.map((c) => store(c, vectors)));
    const passed = { current: 0, past: 0 };
    for (const [i, c] of cases.entries()) {
      const res = await t.call("POST", `${path(agents[i] as string)}/retrieve`, {
        query: c.question,
        now: KU_NOW,
        k: 13,
        touch: false,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        memories: { description: string }[];
        ranking: { focus: string; lift: string | null };
      };
      // The question's time focus decides whether newer versions are lifted.
      expect(body.ranking.lift).toBe(c.kind === "current" ? "newer" : null);
      if (
        passes(
          c,
          body.memories.map((m) => m.description),
        )
      )
        passed[c.kind]++;
    }
    // Measured in memory (bench/explore/tune-default.ts, the same cases): 58 of 60 current, 60 of 60 past.
    expect(passed.current / 60).toBeGreaterThanOrEqual(0.93);
    expect(passed.past / 60).toBeGreaterThanOrEqual(0.9);
    // 120 agents and 1,500 vectors: generous under a loaded machine; nothing here is timed.
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
    type Body = { memories: { metadata: { at: string }; score: number; duplicates: number }[] };
    const ask = async (body: object) =>
      (await (
        await t.call("POST", `${path(agent)}/retrieve`, {
          query: "how many approvals does a deploy need?",
          now: "2026-07-01T00:00:00.000Z",
          touch: false,
          ...body,
        })
      ).json()) as Body;
    // Every copy ranked: the recent one first, by score, not by the tie rule.
    const all = await ask({ collapseDuplicates: false });
    expect(all.memories.map((m) => m.metadata.at)).toEqual([
      "2026-06-30T23:59:00.000Z",
      "2026-06-01T12:00:00.000Z",
    ]);
    expect(all.memories[0]?.score).toBeGreaterThan(all.memories[1]?.score ?? Number.POSITIVE_INFINITY);
    // The default folds the copies: the recent one stands for both (ADR 0030).
    const def = await ask({});
    expect(def.memories.map((m) => [m.metadata.at, m.duplicates])).toEqual([["2026-06-30T23:59:00.000Z", 1]]);
  });
});
