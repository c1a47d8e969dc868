/**
 * `npm run example`: an agent loop with long-term memory — observe → retrieve → act.
 *
 * A barista agent works a few shifts at a cafe. Each step it observes what happens (stored as
 * memories), recalls what matters for the customer in front of it, and acts on it. The "model"
 * here is a few lines of rules, so the example runs anywhere; swap `decide` for an LLM call that
 * gets `context.text` in its prompt. Its tool calls are recorded as observations by `capture`.
 *
 * It uses MEMSTREAM_URL (and MEMSTREAM_API_KEY) when set, else a server on 127.0.0.1:8787 if one
 * answers, else starts one in this process (embedded database in memory, offline embedder).
 */
import { createCapture, createMemstreamClient } from "@memstream/client";
import { startLocalServer } from "./local-server";

const agentId = `barista-${Date.now().toString(36)}`;
const { baseUrl, stop } = await startLocalServer();
const memory = createMemstreamClient({ baseUrl, apiKey: process.env.MEMSTREAM_API_KEY });
const capture = createCapture(memory, { agentId, flushIntervalMs: 200 });

// The world: what the agent sees, shift by shift (simulated time, so recency means something).
const shifts = [
  {
    at: "2026-02-09T08:00:00Z",
    events: [
      "Klaus ordered an oat-milk flat white and said dairy makes him ill",
      "The espresso grinder jammed twice",
    ],
  },
  {
    at: "2026-02-10T08:00:00Z",
    events: [
      "Maria ordered a black americano and tipped well",
      "Klaus mentioned he is writing a thesis on gentrification",
    ],
  },
  {
    at: "2026-02-12T08:00:00Z",
    events: ["Isabella asked for help planning a Valentine's party at the cafe"],
  },
];
const customers = ["Klaus", "Maria"];

// A tool the agent calls; `capture.wrap` records every call and its result as an observation.
const serve = capture.wrap(
  "serveDrink",
  async (customer: string, drink: string) => `served ${customer}: ${drink}`,
);

/** The agent's "model": picks a drink from what memory says about the customer. */
function decide(customer: string, context: string): string {
  const line = context.split("\n").find((l) => l.includes(customer) && /ordered/.test(l));
  if (/dairy/.test(context) && customer === "Klaus") return "oat-milk flat white (no dairy!)";
  return line ? line.replace(/.*ordered an? ([^,]+?)( and.*)?$/, "$1") : "house coffee";
}

for (const shift of shifts) {
  console.log(`\n== shift ${shift.at}`);
  // 1. observe
  await memory.rememberMany(
    agentId,
    shift.events.map((description) => ({ description, createdAt: shift.at })),
  );
  for (const e of shift.events) console.log(`observe  ${e}`);
}

// Importance and embeddings are filled in by the server in the background; relevance needs them.
await waitForEnrichment();

console.log("\n== the next morning, customers come back");
for (const customer of customers) {
  // 2. retrieve: what matters about this customer now, as a prompt-ready block within a budget
  const { context, memories } = await memory.retrieve(agentId, {
    query: `What does ${customer} like to drink?`,
    format: "text",
    maxTokens: 300,
    k: 3,
    // No ranking fields: the default ranks by what the question is about (words and meaning),
    // and on a stream this young recency and importance only break near-ties (README, "The default").
    now: "2026-02-13T08:00:00Z",
  });
  console.log(`\nretrieve for ${customer} (${memories.length} memories, ${context?.tokens} tokens):`);
  console.log(context?.text?.replace(/^/gm, "  "));
  // 3. act, and the action itself becomes a memory through capture
  const drink = decide(customer, context?.text ?? "");
  console.log(`act      ${await serve(customer, drink)}`);
}

await capture.close();
const stats = await memory.stats(agentId);
console.log(`\n${agentId} now has ${stats.total} memories (${stats.embedding.ready} embedded so far).`);
await stop();

async function waitForEnrichment() {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const s = await memory.stats(agentId);
    if ((s.importance.pending === 0 && s.embedding.pending === 0) || Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}
