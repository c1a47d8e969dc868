import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem, without } from "../support/system";

// An agent that observes and at once asks must find what it just wrote by meaning, before the
// enrichment pipeline has embedded it. The pipeline is left out here (`memories.pending` is not announced), so the two
// memories stay pending for the whole test, as they would in the first milliseconds after a write.

const CI = "The CI pipeline on main failed because the auth tests timed out";
const COFFEE = "Had coffee with the team";

type Answer = {
  memories: { description: string; status: { embedding: string }; scores: { relevance: number } }[];
};

async function observeThenAsk(t: TestSystem, ranking: object = {}): Promise<Answer> {
  const agent = `/v1/agents/${encodeURIComponent(uniq("ryow"))}`;
  for (const description of [CI, COFFEE]) {
    expect((await t.call("POST", `${agent}/memories`, { description })).status).toBe(201);
  }
  const res = await t.call("POST", `${agent}/retrieve`, { query: "why did the build break?", ...ranking });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

describe("read your own writes", () => {
  let t: TestSystem;
  let off: TestSystem;
  beforeAll(async () => {
    // The offline embedder, as a new user without an API key has it.
    // The inline bound (500 ms) is the product's; here it is wide, so a busy machine cannot turn
    // the ranking under test into the bound's fallback (a test of the bound would set it small).
    t = await startTestSystem({
      env: { EMBEDDING_PROVIDER: "offline", MEMSTREAM_RETRIEVE_EMBED_PENDING_MS: "30000" },
      announce: without("memories.pending"),
    });
    off = await startTestSystem({
      env: { EMBEDDING_PROVIDER: "offline", MEMSTREAM_RETRIEVE_EMBED_PENDING: "0" },
      announce: without("memories.pending"),
    });
    // As the server does at start (src/server.ts): the model's threads start and load it, which
    // a retrieve's 500 ms bound for inline embedding does not cover.
    await Promise.all([t.system.providers.warm(), off.system.providers.warm()]);
  });
  afterAll(async () => {
    await t.close();
    await off.close();
  });

  it("a retrieve right after two writes ranks the relevant pending memory first", async () => {
    const { memories } = await observeThenAsk(t);
    expect(memories.map((m) => m.description)).toEqual([CI, COFFEE]);
    expect(memories.map((m) => m.scores.relevance)).toEqual([1, 0]);
    // Embedded for this ranking only: storing the vectors stays the pipeline's job.
    expect(memories.map((m) => m.status.embedding)).toEqual(["pending", "pending"]);
  });

  it("also with vector relevance, which ranks through the top-k statement", async () => {
    // Not the paper preset: its min-max recency stretches the 5 ms between the two writes over
    // [0, 1], a tie with relevance's 1 and 0 that the ids break.
    const { memories } = await observeThenAsk(t, { relevance: "vector" });
    expect(memories.map((m) => m.description)).toEqual([CI, COFFEE]);
    expect(memories[0]?.scores.relevance).toBe(1);
  });

  it("with inline embedding turned off, neither has relevance and recency decides (the old rule)", async () => {
    const { memories } = await observeThenAsk(off);
    expect(memories.map((m) => m.description)).toEqual([COFFEE, CI]);
    // No vector and no shared word: relevance is equal for both, which scales to 0.5.
    expect(memories.map((m) => m.scores.relevance)).toEqual([0.5, 0.5]);
  });
});
