import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { InvalidProviderAnswer } from "../../src/lib/errors.js";
import { createLlmImportanceScorer } from "../../src/providers/importance/llm-scorer.js";
import { createOpenAIChat } from "../../src/providers/openai-chat.js";
import { createOpenAIClient } from "../../src/providers/openai-client.js";
import type { ChatModel } from "../../src/providers/types.js";
import { type Stub, startStubOpenAI } from "../support/stub-openai.js";

let stub: Stub;
let chat: ChatModel;
beforeAll(async () => {
  stub = await startStubOpenAI();
  chat = createOpenAIChat({ client: createOpenAIClient({ baseURL: stub.url }), model: "stub-chat" });
});
afterAll(() => stub.close());
beforeEach(() => {
  stub.setMode({ kind: "ok" });
  stub.calls.chat = 0;
  stub.requests.length = 0;
});

type ChatBody = { messages: { role: string; content: string }[]; temperature?: number; max_tokens?: number };
const userPrompt = (i: number) =>
  (stub.requests[i]?.body as ChatBody | undefined)?.messages.at(-1)?.content ?? "";

describe("OpenAI chat against the stub", () => {
  it("returns the reply text and token usage", async () => {
    stub.scriptChat(["Hello there."]);
    const res = await chat.complete([{ role: "user", content: "hi" }], { temperature: 0.2, maxTokens: 50 });
    expect(res.text).toBe("Hello there.");
    expect(res.usage.promptTokens).toBeGreaterThan(0);
    expect(res.usage.completionTokens).toBe(2);
    expect(stub.requests[0]?.body).toMatchObject({ model: "stub-chat", temperature: 0.2, max_tokens: 50 });
  });
});

describe("LLM importance scorer against the stub", () => {
  it("asks the Generative Agents prompt once per memory and parses the ratings in order", async () => {
    const scorer = createLlmImportanceScorer({ chat });
    expect(scorer.id).toBe("llm:stub-chat");
    const memories = [
      "brushed my teeth",
      "CI failed on main",
      "made the bed",
      "the deploy broke production",
      "ate lunch",
    ];
    expect(await scorer.score(memories)).toEqual([2, 8, 2, 8, 2]);
    expect(stub.calls.chat).toBe(5);
    const prompts = stub.requests.map((_, i) => userPrompt(i));
    expect(prompts[0]).toContain("On the scale of 1 to 10, where 1 is purely mundane");
    expect(prompts.some((p) => p.includes("Memory: CI failed on main\nRating: <fill in>"))).toBe(true);
    expect(stub.requests[0]?.body).toMatchObject({ temperature: 0 });
  });

  it("puts the deployment's examples in the prompt", async () => {
    const scorer = createLlmImportanceScorer({
      chat,
      examples: { mundane: ["typo fixed"], poignant: ["CI failed on main"] },
    });
    await scorer.score(["renamed a file"]);
    expect(userPrompt(0)).toContain('mundane memories include: "typo fixed"');
    expect(userPrompt(0)).toContain('poignant memories include: "CI failed on main"');
  });

  it("reads scripted free-form replies", async () => {
    stub.scriptChat(["I'd rate it 6 out of 10.", "**9**"]);
    const scorer = createLlmImportanceScorer({ chat, concurrency: 1 });
    expect(await scorer.score(["a", "b"])).toEqual([6, 9]);
  });

  it("throws InvalidProviderAnswer carrying the reply when it has no rating", async () => {
    stub.setMode({ kind: "nonsense" });
    const scorer = createLlmImportanceScorer({ chat });
    const err = await scorer.score(["my mother died"]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidProviderAnswer);
    expect((err as Error).message).toContain("very important!");
    expect((err as InvalidProviderAnswer).details).toEqual({ reply: "very important!" });
  });

  it("keeps at most `concurrency` calls in flight", async () => {
    stub.setMode({ kind: "slow", ms: 50 });
    let inFlight = 0;
    let peak = 0;
    const counting: ChatModel = {
      modelId: chat.modelId,
      async complete(messages, options) {
        peak = Math.max(peak, ++inFlight);
        try {
          return await chat.complete(messages, options);
        } finally {
          inFlight--;
        }
      },
    };
    const scorer = createLlmImportanceScorer({ chat: counting, concurrency: 3 });
    expect(await scorer.score(Array.from({ length: 10 }, (_, i) => `memory ${i}`))).toHaveLength(10);
    expect(peak).toBe(3);
  });
});
