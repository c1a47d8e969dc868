/**
 * `npm run example:ai-sdk`: a two-turn chat with long-term memory through the AI SDK.
 *
 * The model here is the AI SDK's own mock (ai/test) answering from its prompt, so the example runs
 * anywhere without a key: it shows what memory puts in the prompt and what it stores. Swap it for
 * any provider (`openai("gpt-4o-mini")` from @ai-sdk/openai): nothing else changes.
 *
 * Server: MEMSTREAM_URL, else one on 127.0.0.1:8787 (`npm start`), else one started in this process.
 */
import { memstreamMemory } from "@memstream/ai-sdk";
import { createMemstreamClient } from "@memstream/client";
import { generateText, stepCountIs, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { startLocalServer } from "../../../examples/local-server";

const { baseUrl, stop } = await startLocalServer();
const client = createMemstreamClient({ baseUrl, apiKey: process.env.MEMSTREAM_API_KEY });
const agentId = `ai-sdk-demo-${Date.now().toString(36)}`;
const memory = memstreamMemory({
  client,
  agentId,
  afterTurn: (turn) => console.log(`  (turn stored; ${turn.recalled.length} recall(s) for it)`),
});

// A stand-in model: the first turn it calls `remember`; later it answers with what the prompt's
// memory block says.
let step = 0;
const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } } as never;
const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => {
    step++;
    const memoryBlock = prompt.find((m) => m.role === "system" && m.content.startsWith("Relevant memories"));
    if (step === 1) {
      const input = JSON.stringify({ description: "The user, Klaus, cannot have dairy", importance: 8 });
      return {
        content: [{ type: "tool-call", toolCallId: "t1", toolName: "remember", input }],
        finishReason: { unified: "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    }
    const said = memoryBlock ? `From memory:\n${memoryBlock.content}` : "Noted.";
    return {
      content: [{ type: "text", text: said }],
      finishReason: { unified: "stop", raw: undefined },
      usage,
      warnings: [],
    };
  },
});

for (const message of ["Hi, I'm Klaus. I can't have dairy.", "What should I order?"]) {
  console.log(`\nuser: ${message}`);
  const { text } = await generateText({
    model: wrapLanguageModel({ model, middleware: memory.middleware }),
    tools: memory.tools,
    stopWhen: stepCountIs(3),
    prompt: message,
  });
  console.log(`assistant: ${text.replace(/\n/g, "\n  ")}`);
}

const stats = await client.stats(agentId);
console.log(`\n${agentId} now has ${stats.total} memories.`);
await stop();
