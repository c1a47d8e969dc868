import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// A time expression in the query limits the candidates to that window (ranking field
// `timeFilter`, on in the default preset; ADR 0014), unless no memory is in it.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

const NOW = "2026-07-01T12:00:00.000Z";
type Answer = {
  memories: { metadata: { at: string } }[];
  ranking: {
    timeFilter: boolean;
    timeWindow: { start: string; end: string } | null;
    source: { timeFilter: string };
  };
};

async function seeded(): Promise<string> {
  const agent = uniq("when");
  const at = [
    "2026-02-27T10:00:00.000Z", // 2 days before March: outside even with the slack
    "2026-02-28T20:00:00.000Z", // inside the 1-day slack before March
    "2026-03-05T10:00:00.000Z",
    "2026-03-20T10:00:00.000Z",
    "2026-04-01T10:00:00.000Z", // inside the 1-day slack after March
    "2026-04-10T10:00:00.000Z",
    "2026-06-30T10:00:00.000Z",
  ];
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
    // Distinct texts: the default would fold copies of one text into one hit (collapseDuplicates).
    memories: at.map((a, i) => ({
      description: `The team went hiking (trip ${i + 1})`,
      createdAt: a,
      importance: 5,
      metadata: { at: a },
    })),
  });
  expect(res.status).toBe(201);
  return agent;
}

async function ask(agent: string, body: object): Promise<Answer> {
  const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
    now: NOW,
    touch: false,
    k: 20,
    ...body,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}
const dates = (a: Answer) => a.memories.map((m) => m.metadata.at).sort();

describe("retrieve: time expressions in the query", () => {
  it("the default keeps the memories created in the named month, ± 1 day, and says so", async () => {
    const agent = await seeded();
    const got = await ask(agent, { query: "Where did the team go hiking in March 2026?" });
    expect(dates(got)).toEqual([
      "2026-02-28T20:00:00.000Z",
      "2026-03-05T10:00:00.000Z",
      "2026-03-20T10:00:00.000Z",
      "2026-04-01T10:00:00.000Z",
    ]);
    expect(got.ranking.timeFilter).toBe(true);
    expect(got.ranking.source.timeFilter).toBe("preset");
    expect(got.ranking.timeWindow).toEqual({
      start: "2026-02-28T00:00:00.000Z",
      end: "2026-04-02T00:00:00.000Z",
    });
  });

  it("relative to now: 'yesterday' is the day before now", async () => {
    const agent = await seeded();
    const got = await ask(agent, { query: "what did the team do yesterday?" });
    // 30 June ± 1 day: only the memory of 30 June.
    expect(dates(got)).toEqual(["2026-06-30T10:00:00.000Z"]);
  });

  it("a window with no memory in it filters nothing", async () => {
    const agent = await seeded();
    const got = await ask(agent, { query: "Where did the team go hiking in May 2026?" });
    expect(got.memories).toHaveLength(7);
    expect(got.ranking.timeWindow).not.toBeNull();
  });

  it("off with timeFilter false, in the paper preset, and without a time expression", async () => {
    const agent = await seeded();
    const q = "Where did the team go hiking in March 2026?";
    for (const body of [
      { query: q, timeFilter: false },
      { query: q, preset: "paper" },
      { query: "Where did the team go hiking?" },
    ]) {
      const got = await ask(agent, body);
      expect(got.memories, JSON.stringify(body)).toHaveLength(7);
      expect(got.ranking.timeWindow).toBeNull();
    }
  });

  it("combines with filters: the window is looked for among the filtered memories", async () => {
    const agent = await seeded();
    // Nothing passes both `until` and the March window: no window applies, `until` still does.
    const got = await ask(agent, {
      query: "Where did the team go hiking in March 2026?",
      filters: { until: "2026-02-27T12:00:00.000Z" },
    });
    expect(dates(got)).toEqual(["2026-02-27T10:00:00.000Z"]);
  });

  it("an agent default turns it off; a request turns it back on", async () => {
    const agent = await seeded();
    const put = await t.call("PUT", `/v1/agents/${agent}/settings`, { retrieval: { timeFilter: false } });
    expect(put.status).toBe(200);
    const q = "Where did the team go hiking in March 2026?";
    const off = await ask(agent, { query: q });
    expect(off.memories).toHaveLength(7);
    expect(off.ranking.source.timeFilter).toBe("agent");
    const on = await ask(agent, { query: q, timeFilter: true });
    expect(on.memories).toHaveLength(4);
    expect(on.ranking.source.timeFilter).toBe("request");
  });

  it("rejects a non-boolean timeFilter, naming the field", async () => {
    const agent = await seeded();
    const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
      query: "in March",
      timeFilter: "yes",
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("timeFilter");
  });
});
