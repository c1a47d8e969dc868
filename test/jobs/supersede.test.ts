import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { stubEmbedding } from "../support/stub-openai";
import { startTestSystem, type TestSystem } from "../support/system";
import { waitFor } from "./support";

// The supersession job (docs/adr/0029) with an LLM configured (the OpenAI-compatible stub): a new
// memory with a vector is compared with its most similar earlier memories, the versioned prompt
// asks which it replaces, and those get supersededBy / validUntil. In-process queue, real
// Postgres; the stub's bag-of-words vectors make memories sharing words similar.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({
    env: { LLM_MODEL: "stub-chat", MEMSTREAM_SUPERSESSION: "llm", REFLECTION_THRESHOLD: "0" },
  });
  t.system.jobs.startWorkers();
});
afterAll(() => t.close());

type Mem = {
  id: string;
  supersededBy: string | null;
  validUntil: string | null;
  status: { embedding: string };
};
const path = (a: string) => `/v1/agents/${encodeURIComponent(a)}/memories`;
const get = async (agent: string, id: string) =>
  (await (await t.call("GET", `${path(agent)}/${id}`)).json()) as Mem;
const prompts = () =>
  t.stub.requests
    .filter((r) => r.path === "/v1/chat/completions")
    .map((r) => JSON.stringify((r.body as { messages: unknown }).messages))
    .filter((p) => p.includes("REPLACED by the new one"));

describe("memories.supersede", () => {
  it("asks the LLM about the most similar earlier memories and records what it says is replaced", async () => {
    const agent = uniq("sup-job");
    const post = async (description: string, createdAt: string) =>
      (await (
        await t.call("POST", path(agent), {
          description,
          createdAt,
          importance: 3,
          embedding: stubEmbedding(description),
        })
      ).json()) as Mem;
    const paris = await post("Alice lives in Paris with her cat", "2026-01-05T10:00:00Z");
    const cat = await post("Alice has a cat named Felix", "2026-01-06T10:00:00Z");
    const other = await post("the deploy pipeline uses node 22", "2026-01-07T10:00:00Z");
    t.stub.scriptChatWhen(/Alice lives in Berlin/, ['{"replaced": [1]}']);
    const before = prompts().length;
    const berlin = await post("Alice lives in Berlin with her cat now", "2026-03-02T09:00:00Z");
    const marked = await waitFor("paris superseded", async () => (await get(agent, paris.id)).supersededBy);
    expect(marked).toBe(berlin.id);
    expect((await get(agent, paris.id)).validUntil).toBe("2026-03-02T09:00:00.000Z");
    // The prompt numbered the earlier memories similar enough (≥ 0.5), with their dates, and left
    // the rest out (the cat memory shares two words of seven: 0.34).
    const asked = prompts()
      .slice(before)
      .find((p) => p.includes("Alice lives in Berlin")) as string;
    expect(asked).toMatch(/1\. \(2026-01-05\) Alice lives in Paris with her cat/);
    expect(asked).not.toContain("Felix");
    expect(asked).not.toContain("deploy pipeline");
    expect((await get(agent, cat.id)).supersededBy).toBeNull();
    expect((await get(agent, other.id)).supersededBy).toBeNull();
  });

  it("asks nothing without a similar earlier memory, never overrides a caller's supersession, and retries an unusable answer", async () => {
    const agent = uniq("sup-job2");
    const post = async (body: Record<string, unknown>) =>
      (await (
        await t.call("POST", path(agent), {
          importance: 3,
          embedding: stubEmbedding(body.description as string),
          ...body,
        })
      ).json()) as Mem;
    const before = prompts().length;
    const v1 = await post({ description: "Bruno works at Acme", createdAt: "2026-01-05T10:00:00Z" });
    const v2 = await post({
      description: "Bruno works at Globex",
      createdAt: "2026-02-05T10:00:00Z",
      supersedes: [v1.id],
    });
    // v2's question shows no v1 (already superseded by the caller): nothing similar is current, no call.
    // v3 is similar to v2: the first answer is unusable (retried), the second names v2.
    t.stub.scriptChatWhen(/Bruno works at Initech/, ["no idea", '{"replaced": [1, 7]}']);
    const v3 = await post({ description: "Bruno works at Initech", createdAt: "2026-03-05T10:00:00Z" });
    await waitFor("v2 superseded", async () => (await get(agent, v2.id)).supersededBy);
    expect((await get(agent, v2.id)).supersededBy).toBe(v3.id);
    expect((await get(agent, v1.id)).supersededBy).toBe(v2.id);
    const mine = prompts().slice(before);
    expect(mine.filter((p) => p.includes("Bruno works at Globex") && !p.includes("Initech"))).toHaveLength(0);
    expect(mine.filter((p) => p.includes("Bruno works at Initech"))).toHaveLength(2);
  });
});
