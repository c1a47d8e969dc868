/**
 * `npm run example:langgraph`: a LangGraph graph whose long-term memory is memstream.
 *
 * Two conversations (threads) with one user: the first stores what the user said through the
 * graph's store, the second recalls it. The store is `MemstreamStore`: the namespace
 * ["memories", user] is the memstream agent `langgraph:memories/<user>`.
 *
 * Server: MEMSTREAM_URL, else one on 127.0.0.1:8787 (`npm start`), else one started in this process.
 */
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { createMemstreamClient } from "@memstream/client";
import { agentIdOf, MemstreamStore } from "@memstream/langgraph";
import { startLocalServer } from "../../../examples/local-server";

const { baseUrl, stop } = await startLocalServer();
const client = createMemstreamClient({ baseUrl, apiKey: process.env.MEMSTREAM_API_KEY });
const store = new MemstreamStore({ client });
const user = `klaus-${Date.now().toString(36)}`;

const State = Annotation.Root({
  message: Annotation<string>,
  recalled: Annotation<string[]>,
});

const graph = new StateGraph(State)
  // Remember what the user says that is worth keeping (a real graph would ask its model).
  .addNode("remember", async (state, config) => {
    if (/\b(I|my)\b/i.test(state.message)) {
      await config.store?.put(["memories", user], `m-${Date.now()}`, { text: state.message });
    }
    return {};
  })
  // Recall what matters for this message; a real graph hands it to its model.
  .addNode("recall", async (state, config) => {
    const items = (await config.store?.search(["memories", user], { query: state.message, limit: 3 })) ?? [];
    return { recalled: items.map((i) => `${String(i.value.text)} (score ${i.score?.toFixed(2)})`) };
  })
  .addEdge(START, "remember")
  .addEdge("remember", "recall")
  .addEdge("recall", END)
  .compile({ store });

for (const message of ["I can't have dairy, and I love flat whites.", "What should Klaus order?"]) {
  const out = await graph.invoke({ message, recalled: [] });
  console.log(`\n${message}\n  recalled: ${out.recalled.join("; ") || "(nothing yet)"}`);
  // Importance and embeddings are filled in in the background; let the first turn's land.
  await waitForEmbeddings();
}
console.log(`\nnamespaces: ${JSON.stringify(await store.listNamespaces({ prefix: ["memories"] }))}`);
console.log(`memstream agent: ${agentIdOf("langgraph:", ["memories", user])}`);
await stop();

async function waitForEmbeddings() {
  const agentId = agentIdOf("langgraph:", ["memories", user]);
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    if ((await client.stats(agentId)).embedding.pending === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}
