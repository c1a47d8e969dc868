import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import type { AgentStats } from "../../src/memory/agent-stats";
import { uniq } from "../support/env";
import { stubImportanceReply } from "../support/stub-openai";
import { fixedClock, startTestSystem, type TestSystem } from "../support/system";
import { waitFor } from "./support";

// The daily LLM budget, end to end with the in-process workers and the stub LLM (whose `usage`
// fields are what is counted): an agent past its token budget gets offline importance marked
// `budget:…`, its threshold reflection waits for the next UTC day of the clock, its stats show
// spend and remaining; another agent is unaffected.
// Near real time, so this system's sweep sees the shared database's pending rows of other test
// files as fresh (a clock years ahead would adopt them); the next day is at most a day ahead.
const now = new Date();
const DAY1 = now.toISOString().slice(0, 10);
const MIDNIGHT = new Date(`${DAY1}T00:00:00.000Z`);
MIDNIGHT.setUTCDate(MIDNIGHT.getUTCDate() + 1);
const DAY2 = MIDNIGHT.toISOString().slice(0, 10);
const clock = fixedClock(now.toISOString());
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({
    clock,
    env: { LLM_MODEL: "stub-chat", REFLECTION_THRESHOLD: "10", MEMSTREAM_ADMIN_KEYS: "ops-key" },
  });
  t.system.jobs.startWorkers();
});
afterAll(() => t.close());

const tight = uniq("budget-tight");
const free = uniq("budget-free");

type Mem = { id: string; kind: string; importance: number | null; status: { importance: string } };
const list = async (agent: string, q = "") =>
  ((await (await t.call("GET", `/v1/agents/${agent}/memories${q}`)).json()) as { memories: Mem[] }).memories;
const stats = async (agent: string) =>
  (await (await t.call("GET", `/v1/agents/${agent}/stats`)).json()) as AgentStats;
const runs = async (agent: string) =>
  (
    (await (await t.call("GET", `/v1/agents/${agent}/reflections/runs`)).json()) as {
      runs: { status: string }[];
    }
  ).runs;
const sources = async (agent: string) =>
  (
    await queryRows<{ description: string; source: string | null }>(
      t.system.services.db,
      sql`SELECT description, importance_source AS source FROM memories WHERE agent_id = ${agent} ORDER BY description`,
    )
  ).map((r) => [r.description, r.source]);
/** This file's memories: only chat calls about them are counted (a full run shares the process). */
const OURS = [
  "the deploy failed at 9am",
  "the deploy failed again at noon",
  "the database migration failed during the deploy",
  "the payment service crashed",
  "the deploy was rolled back",
];
const chatRequests = () =>
  t.stub.requests.filter(
    (r) => r.path === "/v1/chat/completions" && OURS.some((d) => JSON.stringify(r.body).includes(d)),
  );
const write = async (agent: string, description: string, extra: Record<string, unknown> = {}) => {
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, { description, ...extra });
  expect(res.status).toBe(201);
};
const allScored = (agent: string, n: number) =>
  waitFor(`${n} scored of ${agent}`, async () => {
    const ms = await list(agent);
    return ms.length >= n && ms.every((m) => m.status.importance === "ready") ? ms : null;
  });
/** The usage the stub reports for one importance request (its word counts), as a provider would. */
const stubUsage = (body: unknown) => {
  const b = body as { messages: { content: string }[] };
  return {
    promptTokens: b.messages
      .map((m) => m.content)
      .join("\n")
      .split(/\s+/).length,
    completionTokens: stubImportanceReply(b.messages.at(-1)?.content ?? "").split(/\s+/).length,
  };
};

describe("an agent's daily LLM budget", () => {
  it("is set per agent in PUT /settings; 0 means unlimited; bad values name the field", async () => {
    const res = await t.call("PUT", `/v1/agents/${tight}/settings`, { llmBudget: { dailyTokens: 1 } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      llmBudget: { dailyTokens: 1 },
      effectiveLlmBudget: { dailyTokens: 1, dailyCalls: 0 },
    });
    const bad = await t.call("PUT", `/v1/agents/${tight}/settings`, { llmBudget: { dailyTokens: -5 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("dailyTokens");
    const s = await stats(free);
    expect(s.llmBudget).toMatchObject({
      day: DAY1,
      resetsAt: MIDNIGHT.toISOString(),
      limits: { tokens: null, calls: null },
      remaining: { tokens: null, calls: null },
      exhausted: false,
    });
  });

  it("past it, importance is scored offline and marked; the reflection waits; stats show the spend", async () => {
    const before = chatRequests().length;
    // The first call is admitted (nothing spent yet) and spends more than the 1-token budget.
    await write(tight, "the deploy failed at 9am");
    await allScored(tight, 1);
    // One call, or more should the job run again (a retry under load): every call sent is counted.
    const first = chatRequests().slice(before);
    expect(first.length).toBeGreaterThanOrEqual(1);
    const calls = first.length;
    const s1 = await stats(tight);
    const usage = first
      .map((r) => stubUsage(r.body))
      .reduce((a, u) => ({
        promptTokens: a.promptTokens + u.promptTokens,
        completionTokens: a.completionTokens + u.completionTokens,
      }));
    expect(s1.llmBudget).toMatchObject({
      limits: { tokens: 1, calls: null },
      spent: { calls, ...usage, tokens: usage.promptTokens + usage.completionTokens },
      remaining: { tokens: 0, calls: null },
      exhausted: true,
    });

    // Two more: no chat call, offline scores marked as the budget's.
    await write(tight, "the deploy failed again at noon");
    await write(tight, "the database migration failed during the deploy");
    const scored = await allScored(tight, 3);
    expect(chatRequests().length).toBe(before + calls);
    expect(await sources(tight)).toEqual([
      ["the database migration failed during the deploy", "budget:offline:examples-v1"],
      ["the deploy failed again at noon", "budget:offline:examples-v1"],
      ["the deploy failed at 9am", "llm:stub-chat"],
    ]);
    // 8 + at least 1 + 1 ≥ 10: the threshold is reached, yet no run and no chat call.
    expect(scored.reduce((n, m) => n + (m.importance ?? 0), 0)).toBeGreaterThanOrEqual(10);
    // The scheduler asked and held it back (counted), rather than not having asked yet.
    const deferred = async () =>
      (await t.system.services.metrics.llmBudgetDeferred.get()).values.find(
        (v) => v.labels.work === "reflection",
      )?.value ?? 0;
    await waitFor("the reflection held back", async () => ((await deferred()) >= 1 ? true : null));
    expect(await runs(tight)).toEqual([]);
    expect(chatRequests().length).toBe(before + calls);
    // Asked by hand: a clear 429 naming when the budget refills.
    const manual = await t.call("POST", `/v1/agents/${tight}/reflect`);
    expect(manual.status).toBe(429);
    expect(await manual.json()).toMatchObject({
      error: { code: "llm_budget_exhausted", details: { resetsAt: MIDNIGHT.toISOString() } },
    });
    expect((await stats(tight)).llmBudget?.spent.calls).toBe(calls);
    // The /ui page of the stream says it too.
    const page = await (await t.app.request(`/ui/agents/${tight}`)).text();
    expect(page).toMatch(/LLM today: [\d,]+ of 1 tokens, \d+ calls · budget spent: LLM work waits until/);
  }, 60_000);

  it("another agent is unaffected", async () => {
    const before = chatRequests().length;
    await write(free, "the payment service crashed");
    await allScored(free, 1);
    const calls = chatRequests().length - before;
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(await sources(free)).toEqual([["the payment service crashed", "llm:stub-chat"]]);
    expect((await stats(free)).llmBudget).toMatchObject({ spent: { calls }, exhausted: false });
  }, 30_000);

  it("when the day turns, the waiting reflection runs on the next importance added", async () => {
    t.stub.scriptChatWhen(/most salient high-level questions/, ["1. Why do deploys keep failing?"]);
    t.stub.scriptChatWhen(/high-level insights/, ["1. The deploy pipeline is fragile (because of 1, 2)"]);
    clock.set(new Date(MIDNIGHT.getTime() + 1_000).toISOString());
    expect((await stats(tight)).llmBudget).toMatchObject({
      day: DAY2,
      spent: { tokens: 0, calls: 0 },
      remaining: { tokens: 1 },
      exhausted: false,
    });
    // A caller-scored memory: importance added without an LLM call, so the reflection is the day's first.
    await write(tight, "the deploy was rolled back", { importance: 3 });
    const done = await waitFor(
      "a succeeded run",
      async () => ((await runs(tight)).some((r) => r.status === "succeeded") ? runs(tight) : null),
      60_000,
    );
    expect(done).toHaveLength(1);
    const s = await stats(tight);
    expect(s.llmBudget?.spent.calls).toBeGreaterThanOrEqual(2);
    expect(s.llmBudget?.exhausted).toBe(true);
    expect((await list(tight, "?kind=reflection")).length).toBe(1);
  }, 90_000);

  it("/metrics counts tokens, calls and deferred work without agent labels", async () => {
    const res = await t.app.request("/metrics", { headers: { authorization: "Bearer ops-key" } });
    const text = await res.text();
    const value = (series: string) =>
      Number(
        text
          .split("\n")
          .find((l) => l.startsWith(`${series} `))
          ?.split(" ")[1] ?? Number.NaN,
      );
    expect(value("memstream_llm_calls_total")).toBeGreaterThanOrEqual(4);
    expect(value('memstream_llm_tokens_total{kind="prompt"}')).toBeGreaterThan(0);
    expect(value('memstream_llm_budget_deferred_total{work="importance"}')).toBeGreaterThanOrEqual(2);
    expect(value('memstream_llm_budget_deferred_total{work="reflection"}')).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/memstream_llm_[a-z_]+\{[^}]*agent/);
  });
});
