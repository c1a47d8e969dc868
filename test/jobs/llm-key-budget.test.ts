import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, parseApiKeys } from "../../src/config";
import type { AgentStats } from "../../src/memory/agent-stats";
import { uniq } from "../support/env";
import { fixedClock, startTestSystem, type TestSystem } from "../support/system";
import { waitFor } from "./support";

// A daily LLM budget on an API key (`MEMSTREAM_API_KEYS` `token=<scope>;dailyCalls=N`) is shared
// by every agent the key's scope opens: once one of them spends it, the others' importance is
// scored offline too; an agent outside the scope is untouched; the next UTC day refills it.
const now = new Date();
const MIDNIGHT = new Date(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
MIDNIGHT.setUTCDate(MIDNIGHT.getUTCDate() + 1);
const clock = fixedClock(now.toISOString());
const team = uniq("team");
const [a, b] = [`${team}/a`, `${team}/b`];
const outside = uniq("solo");
const TEAM_KEY = { authorization: "Bearer team-key" };
const ALL_KEY = { authorization: "Bearer all-key" };

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({
    clock,
    env: {
      LLM_MODEL: "stub-chat",
      REFLECTION_THRESHOLD: "1000",
      MEMSTREAM_API_KEYS: `team-key=prefix:${team}/;dailyCalls=1,all-key`,
    },
  });
  t.system.jobs.startWorkers();
});
afterAll(() => t.close());

type Mem = { description: string; importanceSource: string | null; status: { importance: string } };
const scored = (agent: string, n: number) =>
  waitFor(`${n} scored of ${agent}`, async () => {
    const res = await t.call("GET", `/v1/agents/${encodeURIComponent(agent)}/memories`, undefined, ALL_KEY);
    const ms = ((await res.json()) as { memories: Mem[] }).memories;
    return ms.length >= n && ms.every((m) => m.status.importance === "ready") ? ms : null;
  });
const write = async (agent: string, description: string, key = TEAM_KEY) =>
  expect(
    (await t.call("POST", `/v1/agents/${encodeURIComponent(agent)}/memories`, { description }, key)).status,
  ).toBe(201);
const stats = async (agent: string) =>
  (await (
    await t.call("GET", `/v1/agents/${encodeURIComponent(agent)}/stats`, undefined, ALL_KEY)
  ).json()) as AgentStats;
const chatsAbout = (text: string) =>
  t.stub.requests.filter((r) => r.path === "/v1/chat/completions" && JSON.stringify(r.body).includes(text))
    .length;

describe("an API key's daily LLM budget", () => {
  it("parses from the key entry, and a garbled option is a configuration error naming the entry", () => {
    expect(parseApiKeys(["k1", "k2=prefix:acme/;dailyTokens=500;dailyCalls=3", "k3;dailyCalls=9"])).toEqual([
      { token: "k1", scope: null },
      {
        token: "k2",
        scope: { kind: "prefix", value: "acme/" },
        llmBudget: { dailyTokens: 500, dailyCalls: 3 },
      },
      { token: "k3", scope: null, llmBudget: { dailyTokens: 0, dailyCalls: 9 } },
    ]);
    expect(() => loadConfig({ MEMSTREAM_API_KEYS: "ok,bad=acme/;dailyCalls=lots" })).toThrow(
      /MEMSTREAM_API_KEYS entry 2: budget options/,
    );
  });

  it("is spent by one agent of the scope and then holds back the others; outside agents are unaffected", async () => {
    await write(a, "the release train left without the hotfix");
    const [first] = await scored(a, 1);
    expect(first?.importanceSource).toBe("llm:stub-chat");
    expect(chatsAbout("the release train left without the hotfix")).toBeGreaterThanOrEqual(1);

    // b has spent nothing of its own, but the key's scope has.
    const s = await stats(b);
    expect(s.llmBudget).toMatchObject({
      limits: { tokens: null, calls: null },
      spent: { calls: 0 },
      keys: [{ scope: `prefix:${team}/`, limits: { calls: 1 }, remaining: { calls: 0 }, exhausted: true }],
      exhausted: true,
    });
    expect(s.llmBudget?.keys[0]?.spent.calls).toBeGreaterThanOrEqual(1);

    // Whichever key writes it, b's importance is now scored offline, and marked so in the API.
    await write(b, "the hotfix waits for the next train", ALL_KEY);
    const [second] = await scored(b, 1);
    expect(second?.importanceSource).toBe("budget:offline:examples-v1");
    expect(chatsAbout("the hotfix waits for the next train")).toBe(0);

    await write(outside, "the solo agent keeps its own budget", ALL_KEY);
    const [third] = await scored(outside, 1);
    expect(third?.importanceSource).toBe("llm:stub-chat");
    expect((await stats(outside)).llmBudget).toMatchObject({ keys: [], exhausted: false });
  }, 60_000);

  it("refills at the next UTC day", async () => {
    clock.set(new Date(MIDNIGHT.getTime() + 1_000).toISOString());
    expect((await stats(b)).llmBudget).toMatchObject({
      keys: [{ spent: { calls: 0 }, remaining: { calls: 1 }, exhausted: false }],
      exhausted: false,
    });
    await write(b, "the next train carries the hotfix");
    const ms = await scored(b, 2);
    const fresh = ms.find((m) => m.description === "the next train carries the hotfix");
    expect(fresh?.importanceSource).toBe("llm:stub-chat");
  }, 60_000);
});
