import { Embeddings } from "@langchain/core/embeddings";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { type BaseStore, InMemoryStore, type Item } from "@langchain/langgraph-checkpoint";
import { createMemstreamClient } from "@memstream/client";
import { agentIdOf, MemstreamStore } from "@memstream/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { listen } from "../support/listen";
import { stubEmbedding } from "../support/stub-vectors";
import { startTestSystem, type TestSystem } from "../support/system";

// @memstream/langgraph: LangGraph's store contract run side by side on its own InMemoryStore and
// on MemstreamStore against the real server (the reference decides what each answer must be),
// then a LangGraph graph whose nodes write and read long-term memory through the store.
let t: TestSystem;
let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  t = await startTestSystem();
  // Embeddings are filled in by the workers (searches with a query rank by them).
  t.system.jobs.startWorkers();
  server = await listen(t.app.fetch);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const client = () => createMemstreamClient({ baseUrl: server.url });

/** The model stub's vectors for InMemoryStore too, so both stores rank by the same similarity. */
class StubEmbeddings extends Embeddings {
  constructor() {
    super({});
  }
  async embedDocuments(texts: string[]) {
    return texts.map((x) => stubEmbedding(x));
  }
  async embedQuery(text: string) {
    return stubEmbedding(text);
  }
}

/** What both stores must agree on: namespace, key and value (times and scores are their own). */
const shape = (items: (Item | null)[]) =>
  items.map((i) => (i ? { namespace: i.namespace, key: i.key, value: i.value } : null));
const sorted = (items: Item[]) =>
  shape(items).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** Waits until the server has embedded every item of `namespace` (queries rank by embeddings). */
async function embedded(namespace: string[], prefix: string) {
  const agentId = agentIdOf(prefix, namespace);
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    const s = await client().stats(agentId);
    if (s.embedding.pending === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${agentId} not embedded in time`);
}

describe("MemstreamStore against LangGraph's InMemoryStore", () => {
  const prefix = `${uniq("lg")}:`;
  let memstream: MemstreamStore;
  beforeAll(() => {
    memstream = new MemstreamStore({ client: client(), prefix });
  });
  const reference = new InMemoryStore({ index: { dims: 64, embeddings: new StubEmbeddings() } });
  /** Runs `op` on both stores and returns both answers. */
  const both = async <T>(op: (s: BaseStore) => Promise<T>) => ({
    ours: await op(memstream),
    ref: await op(reference),
  });

  it("put and get, including an update that keeps createdAt, and unknown keys", async () => {
    for (const s of [memstream, reference]) {
      await s.put(["users", "u1"], "prefs", { theme: "dark", size: 3 });
      await s.put(["users", "u1"], "bio", { text: "Klaus cannot have dairy" });
      await s.put(["users", "u2"], "prefs", { theme: "light", size: 5 });
      await s.put(["docs"], "d1", { text: "Python tutorial for beginners" });
      await s.put(["docs"], "d2", { text: "TypeScript guide to generics" });
      await s.put(["team x", "über/ops"], "note", { text: "labels with spaces, slashes and umlauts" });
    }
    const gets = await both((s) =>
      Promise.all([
        s.get(["users", "u1"], "prefs"),
        s.get(["users", "u1"], "bio"),
        s.get(["users", "u2"], "prefs"),
        s.get(["team x", "über/ops"], "note"),
        s.get(["users", "u1"], "nope"),
        s.get(["users", "u3"], "prefs"),
      ]),
    );
    expect(shape(gets.ours)).toEqual(shape(gets.ref));
    expect(gets.ours[4]).toBeNull();

    const before = (await memstream.get(["users", "u1"], "prefs")) as Item;
    for (const s of [memstream, reference])
      await s.put(["users", "u1"], "prefs", { theme: "solarized", size: 4 });
    const after = await both((s) => s.get(["users", "u1"], "prefs"));
    expect(shape([after.ours])).toEqual(shape([after.ref]));
    expect(after.ours?.value).toEqual({ theme: "solarized", size: 4 });
    expect(after.ours?.createdAt).toEqual(before.createdAt);
    expect(after.ours?.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
    // One memory per key: the update replaced it, it did not add another.
    expect((await client().stats(agentIdOf(prefix, ["users", "u1"]))).total).toBe(2);
  });

  it("search a namespace prefix, with filters, limit and offset", async () => {
    for (const args of [
      [["users"], {}],
      [["users", "u1"], {}],
      [[], { limit: 100 }],
      [["users"], { filter: { theme: "light" } }],
      [["users"], { filter: { size: { $gt: 3 } } }],
      [["users"], { filter: { size: { $gte: 4, $lt: 5 } } }],
      [["users"], { filter: { theme: { $in: ["dark", "light"] } } }],
      [["users"], { filter: { theme: { $ne: "light" } } }],
      [["docs"], { filter: { text: "nothing matches" } }],
      [["nobody"], {}],
    ] as const) {
      const r = await both((s) => s.search([...args[0]], { ...args[1] }));
      expect(sorted(r.ours), JSON.stringify(args)).toEqual(sorted(r.ref));
    }
    // limit and offset page through the same set (each store in its own order)
    const pages = await both(async (s) => [
      ...(await s.search(["users"], { limit: 2 })),
      ...(await s.search(["users"], { limit: 2, offset: 2 })),
    ]);
    expect(pages.ours).toHaveLength(3);
    expect(sorted(pages.ours)).toEqual(sorted(pages.ref));
  });

  it("search with a query ranks by similarity as the reference does", async () => {
    await embedded(["docs"], prefix);
    await embedded(["users", "u1"], prefix);
    for (const [ns, query] of [
      [["docs"], "python tutorial"],
      [["docs"], "generics in TypeScript"],
      [["users", "u1"], "dairy"],
    ] as const) {
      const r = await both((s) => s.search([...ns], { query, limit: 2 }));
      expect(shape(r.ours), query).toEqual(shape(r.ref));
      expect(r.ours[0]?.score, query).toBeGreaterThan(r.ours[1]?.score ?? -1);
    }
  });

  it("lists namespaces by prefix, suffix, wildcard and depth", async () => {
    for (const opts of [
      {},
      { prefix: ["users"] },
      { suffix: ["u1"] },
      { prefix: ["users", "*"] },
      { maxDepth: 1 },
      { limit: 2, offset: 1 },
    ]) {
      const r = await both((s) => s.listNamespaces(opts));
      expect(r.ours, JSON.stringify(opts)).toEqual(r.ref);
    }
    expect(await memstream.listNamespaces({ suffix: ["über/ops"] })).toEqual([["team x", "über/ops"]]);
  });

  it("delete removes the item; invalid namespaces are refused as by the reference", async () => {
    const r = await both(async (s) => {
      await s.delete(["users", "u2"], "prefs");
      return [await s.get(["users", "u2"], "prefs"), ...(await s.search(["users"]))];
    });
    expect(r.ours[0]).toBeNull();
    expect(sorted(r.ours.slice(1) as Item[])).toEqual(sorted(r.ref.slice(1) as Item[]));
    await expect(memstream.put(["bad.label"], "k", { a: 1 })).rejects.toThrow(/periods/);
    await expect(memstream.put([], "k", { a: 1 })).rejects.toThrow(/empty/);
    await expect(reference.put(["bad.label"], "k", { a: 1 })).rejects.toThrow(/periods/);
  });
});

describe("a LangGraph graph with memstream as its long-term memory", () => {
  it("writes in one thread and reads in another, per user, and the memories live in memstream", async () => {
    const prefix = `${uniq("lg-graph")}:`;
    const store = new MemstreamStore({ client: client(), prefix });
    const State = Annotation.Root({
      userId: Annotation<string>,
      fact: Annotation<string | undefined>,
      question: Annotation<string>,
      recalled: Annotation<string[]>,
    });
    const graph = new StateGraph(State)
      .addNode("remember", async (state, config) => {
        if (state.fact) {
          await config.store?.put(["memories", state.userId], `fact-${Date.now()}-${Math.random()}`, {
            text: state.fact,
          });
        }
        return {};
      })
      .addNode("recall", async (state, config) => {
        const items =
          (await config.store?.search(["memories", state.userId], { query: state.question })) ?? [];
        return { recalled: items.map((i) => String(i.value.text)) };
      })
      .addEdge(START, "remember")
      .addEdge("remember", "recall")
      .addEdge("recall", END)
      .compile({ store });

    await graph.invoke({
      userId: "klaus",
      fact: "Klaus drinks oat milk flat whites",
      question: "?",
      recalled: [],
    });
    await graph.invoke({
      userId: "maria",
      fact: "Maria drinks black americanos",
      question: "?",
      recalled: [],
    });
    await embedded(["memories", "klaus"], prefix);
    const later = await graph.invoke({ userId: "klaus", question: "What does Klaus drink?", recalled: [] });
    expect(later.recalled).toEqual(["Klaus drinks oat milk flat whites"]);

    const rows = await client().list(agentIdOf(prefix, ["memories", "klaus"]));
    expect(rows.memories.map((m) => m.description)).toEqual([
      JSON.stringify({ text: "Klaus drinks oat milk flat whites" }, null, 2),
    ]);
    expect(await store.listNamespaces({ prefix: ["memories"] })).toEqual([
      ["memories", "klaus"],
      ["memories", "maria"],
    ]);
  });
});
