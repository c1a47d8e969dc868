import { memstreamMemory, type Turn } from "@memstream/ai-sdk";
import { createMemstreamClient } from "@memstream/client";
import { generateText, stepCountIs, streamText, wrapLanguageModel } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { uniq } from "../support/env";
import { listen } from "../support/listen";
import { startTestSystem, type TestSystem } from "../support/system";

// @memstream/ai-sdk end to end: the AI SDK's own generateText/streamText with its mock language
// model (ai/test) as the only fake, against the real server on a port (real Postgres behind it).
let t: TestSystem;
let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  t = await startTestSystem();
  server = await listen(t.app.fetch);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const client = () => createMemstreamClient({ baseUrl: server.url });
type Prompt = { role: string; content: unknown }[];
const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } } as never;
const text = (s: string) => ({
  content: [{ type: "text" as const, text: s }],
  finishReason: { unified: "stop" as const, raw: undefined },
  usage,
  warnings: [],
});
const toolCall = (toolName: string, input: unknown, id: string) => ({
  content: [{ type: "tool-call" as const, toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls" as const, raw: undefined },
  usage,
  warnings: [],
});
const stored = async (agentId: string) =>
  (await client().list(agentId, { limit: 50 })).memories.map((m) => m.description);

describe("@memstream/ai-sdk middleware", () => {
  it("recalls for the last user message into a system message, then stores the turn", async () => {
    const agentId = uniq("ai-mw");
    const klaus = await client().remember(agentId, { description: "Klaus cannot have dairy", importance: 8 });
    const turns: Turn[] = [];
    const memory = memstreamMemory({ client: client(), agentId, afterTurn: (turn) => void turns.push(turn) });
    let seen: Prompt = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        seen = options.prompt as Prompt;
        return text("Oat milk for Klaus.");
      },
    });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: memory.middleware }),
      system: "You are a barista.",
      prompt: "What can Klaus drink?",
    });
    expect(result.text).toBe("Oat milk for Klaus.");
    // The system prompt stays first; the recalled block follows it, before the user's message.
    expect(seen.map((m) => m.role)).toEqual(["system", "system", "user"]);
    expect(seen[0]?.content).toBe("You are a barista.");
    expect(String(seen[1]?.content)).toMatch(/^Relevant memories/);
    expect(String(seen[1]?.content)).toContain("Klaus cannot have dairy");

    expect(await stored(agentId)).toEqual(
      expect.arrayContaining(["User said: What can Klaus drink?", "Assistant answered: Oat milk for Klaus."]),
    );
    expect(turns).toHaveLength(1);
    expect(turns[0]).toMatchObject({
      agentId,
      userText: "What can Klaus drink?",
      answerText: "Oat milk for Klaus.",
      recalled: [{ source: "middleware", query: "What can Klaus drink?", memoryIds: [klaus.id] }],
    });
  });

  it("reports the recalled memories the answer used as retrieval feedback", async () => {
    const agentId = uniq("ai-fb");
    const klaus = await client().remember(agentId, { description: "Klaus cannot have dairy", importance: 8 });
    const tea = await client().remember(agentId, {
      description: "Maria brews green tea at noon",
      importance: 3,
    });
    const memory = memstreamMemory({ client: client(), agentId });
    const model = new MockLanguageModelV3({
      doGenerate: async () => text("Klaus cannot have dairy: oat milk."),
    });
    await generateText({
      model: wrapLanguageModel({ model, middleware: memory.middleware }),
      prompt: "Milk for Klaus?",
    });
    const rows = await queryRows<{ used: string[]; unused: string[] | null }>(
      t.system.database.db,
      sql`SELECT used, unused FROM retrieval_log WHERE agent_id = ${agentId} AND feedback_at IS NOT NULL`,
    );
    expect(rows).toEqual([{ used: [klaus.id], unused: null }]);
    expect(rows[0]?.used).not.toContain(tea.id);
  });

  it("adds nothing to an empty stream's prompt, and stores the turn of a streamed answer", async () => {
    const agentId = uniq("ai-stream");
    const memory = memstreamMemory({ client: client(), agentId });
    let seen: Prompt = [];
    const model = new MockLanguageModelV3({
      doStream: async (options) => {
        seen = options.prompt as Prompt;
        return {
          stream: convertArrayToReadableStream([
            { type: "text-start", id: "1" },
            { type: "text-delta", id: "1", delta: "Hello " },
            { type: "text-delta", id: "1", delta: "Maria." },
            { type: "text-end", id: "1" },
            { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
          ]),
        };
      },
    });
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: memory.middleware }),
      prompt: "Hi, I am Maria",
    });
    expect(await result.text).toBe("Hello Maria.");
    expect(seen.map((m) => m.role)).toEqual(["user"]);
    expect((await stored(agentId)).sort()).toEqual([
      "Assistant answered: Hello Maria.",
      "User said: Hi, I am Maria",
    ]);
  });

  it("answers without memory when memstream cannot be reached, and reports why", async () => {
    const errors: unknown[] = [];
    const down = createMemstreamClient({ baseUrl: "http://127.0.0.1:1", retry: { retries: 0 } });
    const memory = memstreamMemory({ client: down, agentId: "nobody", onError: (e) => errors.push(e) });
    const model = new MockLanguageModelV3({ doGenerate: async () => text("Still here.") });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: memory.middleware }),
      prompt: "Hello?",
    });
    expect(result.text).toBe("Still here.");
    // The recall and the turn's storing both failed, each reported once.
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ code: "network_error" });
  });
});

describe("@memstream/ai-sdk tools", () => {
  it("round trip: the model remembers, recalls what it stored, records an outcome, then answers", async () => {
    const agentId = uniq("ai-tools");
    const turns: Turn[] = [];
    const memory = memstreamMemory({ client: client(), agentId, afterTurn: (turn) => void turns.push(turn) });
    const prompts: Prompt[] = [];
    const steps = [
      toolCall(
        "remember",
        { description: "Isabella's party is at Hobbs Cafe on Friday", importance: 6 },
        "c1",
      ),
      toolCall("recall", { query: "Where is Isabella's party?" }, "c2"),
      toolCall("record_outcome", { task: "Find the party venue", taskType: "lookup", success: true }, "c3"),
      text("At Hobbs Cafe, on Friday."),
    ];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt as Prompt);
        const next = steps.shift();
        if (!next) throw new Error("the model was called more often than scripted");
        return next;
      },
    });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: memory.middleware }),
      tools: memory.tools,
      stopWhen: stepCountIs(6),
      prompt: "Remember the party details, then tell me where it is.",
    });
    expect(result.text).toBe("At Hobbs Cafe, on Friday.");
    expect(result.steps).toHaveLength(4);

    // The recall tool's answer, as the model read it in its next step, holds what remember stored.
    const toolMessages = prompts[2]?.filter((m) => m.role === "tool") ?? [];
    const recallResult = JSON.stringify(toolMessages.at(-1)?.content);
    expect(recallResult).toContain("Isabella's party is at Hobbs Cafe on Friday");

    const rows = await client().list(agentId, { limit: 50 });
    const byText = (s: string) => rows.memories.find((m) => m.description.includes(s));
    expect(byText("Isabella's party is at Hobbs Cafe")).toMatchObject({ importance: 6, kind: "observation" });
    expect(byText("Find the party venue")).toMatchObject({ kind: "outcome" });
    // One turn, stored once (not once per step), with the tool's recall in it.
    expect(rows.memories.filter((m) => m.description.startsWith("User said:"))).toHaveLength(1);
    expect(turns).toHaveLength(1);
    expect(turns[0]?.recalled.map((r) => r.source).sort()).toEqual(["middleware", "tool"]);
    const remembered = byText("Isabella's party")?.id;
    expect(turns[0]?.recalled.find((r) => r.source === "tool")?.memoryIds).toContain(remembered);
  });

  it("a tool call the server refuses comes back to the model as a tool error", async () => {
    // An agent id the server refuses (spaces): every call of this memory is a 400 from memstream.
    const memory = memstreamMemory({ client: client(), agentId: "not a valid agent id", storeTurns: false });
    const prompts: Prompt[] = [];
    const steps = [toolCall("remember", { description: "Klaus cannot have dairy" }, "c1"), text("ok")];
    const model = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(options.prompt as Prompt);
        return steps.shift() ?? text("ok");
      },
    });
    const result = await generateText({
      model,
      tools: memory.tools,
      stopWhen: stepCountIs(3),
      prompt: "remember",
    });
    expect(result.text).toBe("ok");
    // The model's next step reads the server's reason as the tool's error.
    const toolResult = JSON.stringify(prompts[1]?.filter((m) => m.role === "tool"));
    expect(toolResult).toMatch(/error/i);
    expect(toolResult).toMatch(/agent/i);
  });
});
