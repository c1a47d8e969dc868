import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Unavailable } from "../../src/lib/errors.js";
import { EMPTY_TEXT_PLACEHOLDER } from "../../src/providers/batching.js";
import { createOpenAIClient } from "../../src/providers/openai-client.js";
import { createOpenAIEmbedder } from "../../src/providers/openai-embedder.js";
import { STUB_DIMENSIONS, type Stub, startStubOpenAI, stubEmbedding } from "../support/stub-openai.js";

let stub: Stub;
beforeAll(async () => {
  stub = await startStubOpenAI();
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.setMode({ kind: "ok" });
  stub.calls.embeddings = 0;
  stub.requests.length = 0;
});

const client = (opts: { timeoutMs?: number; maxRetries?: number } = {}) =>
  createOpenAIClient({ baseURL: stub.url, ...opts });

describe("OpenAI embedder against the stub", () => {
  it("splits 600 texts into batches of 256 and keeps their order", async () => {
    const embedder = createOpenAIEmbedder({ client: client(), model: "stub-embed", maxBatchSize: 256 });
    const texts = Array.from({ length: 600 }, (_, i) => `memory number ${i} about topic ${i % 7}`);
    const vectors = await embedder.embed(texts);
    expect(stub.calls.embeddings).toBe(3);
    expect(stub.requests.map((r) => (r.body as { input: string[] }).input.length)).toEqual([256, 256, 88]);
    expect(vectors).toHaveLength(600);
    for (const i of [0, 255, 256, 511, 512, 599]) {
      expect(vectors[i]).toEqual(stubEmbedding(texts[i] as string).map((x) => expect.closeTo(x, 6)));
    }
  });

  it("learns its dimensions from the first answer when not configured", async () => {
    const embedder = createOpenAIEmbedder({ client: client(), model: "stub-embed" });
    expect(embedder.modelId).toBe("openai:stub-embed");
    expect(embedder.dimensions).toBe(0);
    await embedder.embed(["hello"]);
    expect(embedder.dimensions).toBe(STUB_DIMENSIONS);
  });

  it("sends configured dimensions and names them in the model id", async () => {
    const embedder = createOpenAIEmbedder({ client: client(), model: "stub-embed", dimensions: 32 });
    expect(embedder.modelId).toBe("openai:stub-embed@32");
    const [v] = await embedder.embed(["hello"]);
    expect(v).toHaveLength(32);
    expect(stub.requests[0]?.body).toMatchObject({ dimensions: 32, encoding_format: "float" });
  });

  it("embeds empty and whitespace text as the placeholder instead of failing", async () => {
    const embedder = createOpenAIEmbedder({ client: client(), model: "stub-embed" });
    const [a, b] = await embedder.embed(["", "   "]);
    expect(a).toEqual(b);
    expect(stub.requests[0]?.body).toMatchObject({ input: [EMPTY_TEXT_PLACEHOLDER, EMPTY_TEXT_PLACEHOLDER] });
  });

  it("retries a 429 after the retry-after the server asked for", async () => {
    stub.setMode({ kind: "status", status: 429, times: 1, retryAfterSeconds: 1 });
    const embedder = createOpenAIEmbedder({ client: client(), model: "stub-embed" });
    const started = Date.now();
    await expect(embedder.embed(["hello"])).resolves.toHaveLength(1);
    expect(stub.calls.embeddings).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("retries a 500 then succeeds", async () => {
    stub.setMode({ kind: "status", status: 500, times: 2 });
    const embedder = createOpenAIEmbedder({ client: client({ maxRetries: 2 }), model: "stub-embed" });
    await expect(embedder.embed(["hello"])).resolves.toHaveLength(1);
    expect(stub.calls.embeddings).toBe(3);
  });

  it("gives up after maxRetries with Unavailable naming the status", async () => {
    stub.setMode({ kind: "status", status: 500, retryAfterSeconds: 0 });
    const embedder = createOpenAIEmbedder({ client: client({ maxRetries: 1 }), model: "stub-embed" });
    const err = await embedder.embed(["hello"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Unavailable);
    expect((err as Unavailable).message).toMatch(/500/);
    expect((err as Unavailable).details).toMatchObject({ status: 500 });
    expect(stub.calls.embeddings).toBe(2);
  });

  it("fails with Unavailable when the answer is slower than the timeout", async () => {
    stub.setMode({ kind: "slow", ms: 2_000 });
    const embedder = createOpenAIEmbedder({
      client: client({ timeoutMs: 100, maxRetries: 0 }),
      model: "stub-embed",
    });
    const err = await embedder.embed(["hello"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Unavailable);
    expect((err as Error).message).toMatch(/timed out/i);
  });

  it("fails with Unavailable when nothing listens", async () => {
    const dead = createOpenAIClient({ baseURL: "http://127.0.0.1:9/v1", maxRetries: 0 });
    const embedder = createOpenAIEmbedder({ client: dead, model: "stub-embed" });
    await expect(embedder.embed(["hello"])).rejects.toBeInstanceOf(Unavailable);
  });
});
