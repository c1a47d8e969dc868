import { describe, expect, it } from "vitest";
import { runReflection } from "../../../src/memory/reflect/plan.js";
import { PROMPT_VERSION } from "../../../src/memory/reflect/prompts/index.js";
import type { Memory } from "../../../src/memory/types.js";
import type { ChatMessage, ChatModel, ChatResult } from "../../../src/providers/types.js";
import { memory } from "../support/memories.js";

/** A scripted ChatModel: answers in order, records the prompts, reports fixed usage per call. */
function scriptedChat(answers: (string | Error)[]): ChatModel & { prompts: string[] } {
  const prompts: string[] = [];
  return {
    modelId: "scripted",
    prompts,
    async complete(messages: ChatMessage[]): Promise<ChatResult> {
      prompts.push(messages.map((m) => m.content).join("\n"));
      const next = answers.shift();
      if (next === undefined) throw new Error("scripted chat: no answer left");
      if (next instanceof Error) throw next;
      return { text: next, usage: { promptTokens: 100 + prompts.length, completionTokens: 10 } };
    },
  };
}

const recent = [memory({ id: "r1" }), memory({ id: "r2" }), memory({ id: "r3" })];
const evidence: Record<string, Memory[]> = {
  "What is A?": [memory({ id: "e1" }), memory({ id: "e2" }), memory({ id: "refl-1", kind: "reflection" })],
  "What is B?": [memory({ id: "e3" }), memory({ id: "e1" })],
};
const retrieve = async (q: string) => evidence[q] ?? [];

describe("runReflection", () => {
  it("asks questions, then insights per question, mapping cited numbers to memory ids", async () => {
    const chat = scriptedChat([
      "1. What is A?\n2. What is B?",
      "1. A rests on e1 and a reflection (because of 1, 3)\n2. invented (because of 9)",
      "1. B rests on e3 (because of 1, 7)",
    ]);
    const plan = await runReflection({ chat, recent: async () => recent, retrieve });
    expect(plan).toEqual({
      promptVersion: PROMPT_VERSION,
      questions: ["What is A?", "What is B?"],
      insights: [
        {
          description: "A rests on e1 and a reflection",
          citations: ["e1", "refl-1"],
          question: "What is A?",
        },
        { description: "B rests on e3", citations: ["e3"], question: "What is B?" },
      ],
      usage: { promptTokens: 101 + 102 + 103, completionTokens: 30, calls: 3 },
    });
    expect(chat.prompts[0]).toContain("1. memory r1\n2. memory r2\n3. memory r3");
    expect(chat.prompts[1]).toContain("1. memory e1\n2. memory e2\n3. memory refl-1");
  });

  it("dedupes an insight reached from two questions, merging its citations", async () => {
    const chat = scriptedChat([
      "1. What is A?\n2. What is B?",
      "Same insight (because of 2)",
      "same  insight. (because of 1, 2)",
    ]);
    const plan = await runReflection({ chat, recent: async () => recent, retrieve });
    expect(plan.insights).toEqual([
      { description: "Same insight", citations: ["e2", "e3", "e1"], question: "What is A?" },
    ]);
  });

  it("propagates a failing LLM call: no partial plan", async () => {
    const chat = scriptedChat(["1. What is A?\n2. What is B?", "A (because of 1)", new Error("llm down")]);
    await expect(runReflection({ chat, recent: async () => recent, retrieve })).rejects.toThrow("llm down");
  });

  it("propagates a failing retrieval", async () => {
    const chat = scriptedChat(["1. What is A?"]);
    const failing = async () => Promise.reject(new Error("db down"));
    await expect(runReflection({ chat, recent: async () => recent, retrieve: failing })).rejects.toThrow(
      "db down",
    );
  });

  it("makes no call when there is nothing to reflect on", async () => {
    const chat = scriptedChat([]);
    const plan = await runReflection({ chat, recent: async () => [], retrieve });
    expect(plan).toEqual({
      promptVersion: PROMPT_VERSION,
      questions: [],
      insights: [],
      usage: { promptTokens: 0, completionTokens: 0, calls: 0 },
    });
  });

  it("skips the insight call for a question with no evidence", async () => {
    const chat = scriptedChat(["1. What is A?\n2. What is unknown?", "A (because of 1)"]);
    const plan = await runReflection({ chat, recent: async () => recent, retrieve });
    expect(plan.questions).toEqual(["What is A?", "What is unknown?"]);
    expect(plan.insights.map((i) => i.description)).toEqual(["A"]);
    expect(plan.usage.calls).toBe(2);
  });

  it("honours the question and insight counts", async () => {
    const chat = scriptedChat(["1. What is A?\n2. What is B?", "X (because of 1)\nY (because of 2)"]);
    const plan = await runReflection(
      { chat, recent: async () => recent, retrieve },
      { questions: 1, insightsPerQuestion: 1 },
    );
    expect(plan.questions).toEqual(["What is A?"]);
    expect(plan.insights.map((i) => i.description)).toEqual(["X"]);
    expect(chat.prompts[0]).toContain("what are 1 most salient");
  });

  it("rejects evidence from another agent", async () => {
    const chat = scriptedChat(["1. What is A?"]);
    const foreign = async () => [memory({ id: "x", agentId: "someone-else" })];
    await expect(runReflection({ chat, recent: async () => recent, retrieve: foreign })).rejects.toThrow(
      /another agent/,
    );
  });
});
