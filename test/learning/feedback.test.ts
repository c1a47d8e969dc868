import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { learnWeights } from "../../src/memory/learning/learn";
import type { LearnedState } from "../../src/memory/learning/state";
import type { Weights } from "../../src/memory/retrieve/ranking/components";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";
import { until } from "../support/until";

const MIN_EVENTS = 8;
const MODEL = "learn-3d";
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({ env: { MEMSTREAM_LEARN_MIN_EVENTS: String(MIN_EVENTS) } });
});
afterAll(() => t.close());

type Memory = { id: string; importance: number | null };
type Answer = {
  retrievalId: string;
  memories: Memory[];
  ranking: { weights: Weights; source: { weights: string } };
};
type Settings = { learnWeights: boolean | null; effectiveLearnWeights: boolean; learned: LearnedState };

/** 12 memories whose importance and direction disagree, at one time (recency ties). */
async function seed(agent: string): Promise<Memory[]> {
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
    memories: Array.from({ length: 12 }, (_, i) => ({
      description: `memory ${i}`,
      createdAt: "2026-01-01T00:00:00.000Z",
      importance: 1 + ((i * 7) % 10),
      embedding: [Math.cos(i / 2), Math.sin(i / 2), 0.1],
      embeddingModel: MODEL,
    })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { memories: Memory[] }).memories;
}

async function retrieve(agent: string, i: number, body: object = {}): Promise<Answer> {
  const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
    queryEmbedding: [Math.cos(i * 1.3), Math.sin(i * 1.3), 0.1],
    embeddingModel: MODEL,
    touch: false,
    k: 5,
    ...body,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

const feedback = (agent: string, body: object) => t.call("POST", `/v1/agents/${agent}/feedback`, body);
const settings = async (agent: string) =>
  (await (await t.call("GET", `/v1/agents/${agent}/settings`)).json()) as Settings;
const learningOn = async (agent: string) =>
  expect((await t.call("PUT", `/v1/agents/${agent}/settings`, { learnWeights: true })).status).toBe(200);

/** `n` retrieves, each with feedback that it used the memory `pick` chooses among those returned. */
async function giveFeedback(agent: string, n: number, pick: (ms: Memory[]) => Memory) {
  for (let i = 0; i < n; i++) {
    const a = await retrieve(agent, i);
    const res = await feedback(agent, { retrievalId: a.retrievalId, used: [pick(a.memories).id] });
    expect(res.status).toBe(200);
  }
}
const mostImportant = (ms: Memory[]) =>
  ms.reduce((best, m) => ((m.importance ?? 0) > (best.importance ?? 0) ? m : best));
/**
 * `n` retrieves of the top 5, each with feedback that the agent used the most important of the
 * best 8 (found by a wider retrieve): often ranked below the cut, so only a fit can bring it back.
 */
async function useMostImportantOfBest8(agent: string, n: number) {
  for (let i = 0; i < n; i++) {
    const a = await retrieve(agent, i);
    const wider = await retrieve(agent, i, { k: 8 });
    const res = await feedback(agent, {
      retrievalId: a.retrievalId,
      used: [mostImportant(wider.memories).id],
    });
    expect(res.status).toBe(200);
  }
}

describe("POST /feedback", () => {
  it("records which returned memories were used; counts the agent's events", async () => {
    const agent = uniq("fb");
    await seed(agent);
    const a = await retrieve(agent, 0);
    const [first, second] = a.memories;
    let res = await feedback(agent, { retrievalId: a.retrievalId, used: [first?.id], unused: [second?.id] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ retrievalId: a.retrievalId, used: 1, unused: 1, events: 1 });
    // Given again, it replaces the earlier one (still one event); unused defaults to the rest.
    res = await feedback(agent, { retrievalId: a.retrievalId, used: [second?.id] });
    expect(await res.json()).toEqual({ retrievalId: a.retrievalId, used: 1, unused: 4, events: 1 });
  });

  it("refuses another agent's retrievalId, an unknown one, and ids the retrieve did not rank", async () => {
    const owner = uniq("fb");
    const other = uniq("fb");
    const mems = await seed(owner);
    await seed(other);
    const a = await retrieve(owner, 1);
    // Another agent cannot give feedback on it (404, as for an unknown id), and the entry is unchanged.
    let res = await feedback(other, { retrievalId: a.retrievalId, used: [a.memories[0]?.id] });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    res = await feedback(owner, { retrievalId: "ret_unknown", used: [] });
    expect(res.status).toBe(404);
    // A memory the retrieve never ranked (another agent's) is a 400 naming it.
    const otherMemory = (await retrieve(other, 1)).memories[0]?.id;
    res = await feedback(owner, { retrievalId: a.retrievalId, used: [a.memories[0]?.id, otherMemory] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: { field: string } } }).error.details.field).toBe(
      "used.1",
    );
    res = await feedback(owner, {
      retrievalId: a.retrievalId,
      used: [a.memories[0]?.id],
      unused: [a.memories[0]?.id],
    });
    expect(res.status).toBe(400);
    // The owner's own feedback is still its first event: nothing above was recorded.
    res = await feedback(owner, { retrievalId: a.retrievalId, used: [a.memories[0]?.id] });
    expect(((await res.json()) as { events: number }).events).toBe(1);
    // A memory ranked below the cut (the pool: all 12 here) can be named as used; unused stays the returned rest.
    const below = mems.find((m) => !a.memories.some((r) => r.id === m.id));
    res = await feedback(owner, { retrievalId: a.retrievalId, used: [below?.id] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ used: 1, unused: 5 });
  });
});

describe("learned weights", () => {
  it("learns that importance matters to an agent that uses the most important memory, and ranks with it", async () => {
    const agent = uniq("learn");
    await seed(agent);
    await learningOn(agent);
    const before = await retrieve(agent, 0);
    expect(before.ranking.source.weights).toBe("preset");
    await useMostImportantOfBest8(agent, MIN_EVENTS + 4);
    const r = await learnWeights(t.system.services, agent);
    expect(r).toMatchObject({ fitted: true, adopted: true });
    const s = await settings(agent);
    const w = s.learned.weights;
    if (!w) throw new Error("no learned weights");
    const share = (x: Weights) => x.importance / (x.recency + x.importance + x.relevance);
    // Moved toward importance, by at most the step bound (0.25 of the sum) in one fit.
    expect(share(w)).toBeGreaterThan(share(before.ranking.weights) + 0.1);
    expect(share(w)).toBeLessThanOrEqual(share(before.ranking.weights) + 0.25 + 1e-9);
    expect(s.learned.events).toBe(MIN_EVENTS + 4);
    expect(s.learned.heldOutGain).toBeGreaterThanOrEqual(0.02);
    // It brings back more of what the agent used on the held-out feedback.
    expect(s.learned.lastFit?.heldOutRecall?.gain).toBeGreaterThan(0);
    expect(s.learned.fittedAt).not.toBeNull();
    // The answer says learned weights ranked; request weights, or a preset, still win.
    const after = await retrieve(agent, 0);
    expect(after.ranking.source.weights).toBe("learned");
    expect(after.ranking.weights).toEqual(w);
    expect((await retrieve(agent, 0, { weights: { relevance: 3 } })).ranking.source.weights).toBe("request");
    expect((await retrieve(agent, 0, { preset: "paper" })).ranking.weights).toEqual({
      recency: 1,
      importance: 1,
      relevance: 1,
    });
    // Learning off for the agent: its defaults again (the weights stay stored).
    await t.call("PUT", `/v1/agents/${agent}/settings`, { learnWeights: false });
    expect((await retrieve(agent, 0)).ranking.source.weights).toBe("preset");
    await learningOn(agent);
    // A reset forgets them and their evidence.
    expect((await t.call("DELETE", `/v1/agents/${agent}/learned-weights`)).status).toBe(200);
    const reset = await settings(agent);
    expect(reset.learned.weights).toBeNull();
    expect(reset.learned.resetAt).not.toBeNull();
    expect((await retrieve(agent, 0)).ranking.source.weights).toBe("preset");
    expect(await learnWeights(t.system.services, agent)).toMatchObject({ fitted: false });
  });

  it("refuses a fit that does not improve the held-out feedback", async () => {
    const agent = uniq("learn");
    await seed(agent);
    await learningOn(agent);
    // The agent always uses what the current weights ranked first: nothing to gain.
    await giveFeedback(agent, MIN_EVENTS + 2, (ms) => ms[0] as Memory);
    expect(await learnWeights(t.system.services, agent)).toMatchObject({ fitted: true, adopted: false });
    const s = await settings(agent);
    expect(s.learned.weights).toBeNull();
    expect(s.learned.lastFit?.adopted).toBe(false);
    expect(s.learned.lastFit?.refused).toMatch(/held-out/);
    expect((await retrieve(agent, 0)).ranking.source.weights).toBe("preset");
  });

  it("refuses a fit that ranks better pairs but brings back less of what the agent used", async () => {
    const agent = uniq("learn");
    await seed(agent);
    await learningOn(agent);
    // Feedback only ever names what came back: every used memory is already in the current top k,
    // so no fit can raise held-out recall, whatever pairs it orders better.
    await giveFeedback(agent, MIN_EVENTS + 4, mostImportant);
    const r = await learnWeights(t.system.services, agent);
    expect(r).toMatchObject({ fitted: true, adopted: false });
    const fit = (await settings(agent)).learned.lastFit;
    expect(fit?.heldOutRecall?.current).toBe(1);
    expect(fit?.refused).toMatch(/recall|pairwise/);
    expect((await retrieve(agent, 0)).ranking.source.weights).toBe("preset");
  });

  it("does not fit while learning is off, nor before enough feedback", async () => {
    const agent = uniq("learn");
    await seed(agent);
    expect((await t.call("PUT", `/v1/agents/${agent}/settings`, { learnWeights: false })).status).toBe(200);
    await giveFeedback(agent, MIN_EVENTS, mostImportant);
    expect(await learnWeights(t.system.services, agent)).toEqual({
      fitted: false,
      reason: "learning is off for the agent",
    });
    const few = uniq("learn");
    await seed(few);
    await learningOn(few);
    await giveFeedback(few, MIN_EVENTS - 1, mostImportant);
    expect(await learnWeights(t.system.services, few)).toMatchObject({ fitted: false });
  });

  it("feedback starts an agent.learn job once the agent has enough", async () => {
    const agent = uniq("learn");
    await seed(agent);
    await learningOn(agent);
    const workers = t.system.jobs.startWorkers();
    try {
      await giveFeedback(agent, MIN_EVENTS, mostImportant);
      const fit = await until("a fit", async () => (await settings(agent)).learned.lastFit, 30_000);
      expect(fit.events).toBe(MIN_EVENTS);
    } finally {
      await workers.close();
    }
  });
});
