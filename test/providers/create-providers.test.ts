import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProviders } from "../../src/providers/index.js";
import { type Stub, startStubOpenAI } from "../support/stub-openai.js";

let stub: Stub;
beforeAll(async () => {
  stub = await startStubOpenAI();
});
afterAll(() => stub.close());

describe("createProviders", () => {
  it("is fully offline without an LLM: USE embeddings, offline importance, no chat", async () => {
    const p = await createProviders({ embedding: { provider: "offline" } });
    expect(p.embedder.modelId).toBe("use-lite-512");
    expect(p.importance.id).toBe("offline:examples-v1");
    expect(p.chat).toBeNull();
  });

  it("uses the server for embeddings, importance and chat when configured", async () => {
    const p = await createProviders({
      openai: { baseURL: stub.url, maxRetries: 0 },
      embedding: { provider: "openai", model: "stub-embed", dimensions: 16, batchSize: 10 },
      llm: { model: "stub-chat" },
      importanceExamples: { mundane: ["typo fixed"], poignant: ["CI failed on main"] },
    });
    expect(p.embedder).toMatchObject({ modelId: "openai:stub-embed@16", dimensions: 16, maxBatchSize: 10 });
    expect(p.importance.id).toBe("llm:stub-chat");
    expect(p.chat?.modelId).toBe("stub-chat");
    expect(await p.importance.score(["the deploy failed"])).toEqual([8]);
    expect((await p.embedder.embed(["x"]))[0]).toHaveLength(16);
  });

  it("uses the offline scorer over server embeddings when there is no LLM", async () => {
    const p = await createProviders({
      openai: { baseURL: stub.url },
      embedding: { provider: "openai", model: "stub-embed" },
    });
    expect(p.importance.id).toBe("offline:examples-v1");
    expect(p.chat).toBeNull();
  });

  it("refuses an LLM or OpenAI embeddings without a server", async () => {
    await expect(
      createProviders({ embedding: { provider: "offline" }, llm: { model: "m" } }),
    ).rejects.toThrow(/openai/);
    await expect(createProviders({ embedding: { provider: "openai", model: "m" } })).rejects.toThrow(
      /openai/,
    );
  });
});
