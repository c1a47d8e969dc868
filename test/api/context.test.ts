import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatContext } from "../../src/memory/context/format";
import { createTokenCounter } from "../../src/memory/context/tokens";
import type { Memory } from "../../src/memory/types";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

const NOW = "2026-01-10T12:00:00.000Z";
const at = (h: number) => new Date(Date.parse(NOW) - h * 3_600_000).toISOString();
const count = createTokenCounter("o200k_base");

type Context = { text?: string; tokens: number; encoding: string; truncated: boolean };
type Answer = { memories: (Memory & { score: number })[]; context?: Context };

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

async function seed(agent: string, items: object[]): Promise<Memory[]> {
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, { memories: items });
  expect(res.status).toBe(201);
  return ((await res.json()) as { memories: Memory[] }).memories;
}

async function retrieve(agent: string, body: object, status = 200): Promise<Answer> {
  const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, { now: NOW, touch: false, ...body });
  expect(res.status).toBe(status);
  return (await res.json()) as Answer;
}

// 30 memories of varied length; importance-only ranking makes the order known.
const WORDS = "the build failed again because a flaky integration test timed out on the shared runner".split(
  " ",
);
const items = Array.from({ length: 30 }, (_, i) => ({
  description: `note ${i}: ${WORDS.slice(0, 1 + ((i * 7) % WORDS.length)).join(" ")}`,
  importance: 1 + (i % 10),
  createdAt: at(i),
}));
const BY_IMPORTANCE = { weights: { recency: 0, importance: 1, relevance: 0 } };

describe("retrieve with maxTokens", () => {
  it("returns the longest best-first prefix that fits, counted exactly", async () => {
    const agent = uniq("budget");
    await seed(agent, items);
    const full = (await retrieve(agent, { ...BY_IMPORTANCE, k: 30 })).memories;
    for (const maxTokens of [1, 12, 40, 57, 100, 333, 5000]) {
      const { memories, context } = await retrieve(agent, {
        ...BY_IMPORTANCE,
        k: 30,
        maxTokens,
        format: "text",
      });
      const text = context?.text ?? "";
      expect(context?.tokens).toBe(count(text));
      expect(context?.tokens).toBeLessThanOrEqual(maxTokens);
      expect(text).toBe(formatContext(memories));
      expect(memories.map((m) => m.id)).toEqual(full.slice(0, memories.length).map((m) => m.id));
      const next = full[memories.length];
      expect(context?.truncated).toBe(next !== undefined);
      // Stop at the first miss: the next-ranked memory would not have fit.
      if (next) expect(count(formatContext([...memories, next]))).toBeGreaterThan(maxTokens);
    }
  });

  it("ranks 50 candidates when k is not given, and k when it is", async () => {
    const agent = uniq("budget-k");
    await seed(
      agent,
      Array.from({ length: 60 }, (_, i) => ({ description: `tiny ${i}`, importance: 5, createdAt: at(i) })),
    );
    expect((await retrieve(agent, { maxTokens: 100_000 })).memories).toHaveLength(50);
    expect((await retrieve(agent, { maxTokens: 100_000, k: 7 })).memories).toHaveLength(7);
    const plain = await retrieve(agent, {});
    expect(plain.memories).toHaveLength(10);
    expect(plain.context).toBeUndefined();
  });

  it("format json reports the budget without the text", async () => {
    const agent = uniq("budget-json");
    await seed(agent, items.slice(0, 5));
    const { memories, context } = await retrieve(agent, {
      ...BY_IMPORTANCE,
      maxTokens: 2000,
      format: "json",
    });
    expect(context).toEqual({
      tokens: count(formatContext(memories)),
      encoding: "o200k_base",
      truncated: false,
    });
  });

  it("touches only the memories it returns", async () => {
    const agent = uniq("budget-touch");
    const stored = await seed(agent, items.slice(0, 6));
    const full = (await retrieve(agent, BY_IMPORTANCE)).memories;
    const maxTokens = count(formatContext(full.slice(0, 2)));
    const { memories } = await retrieve(agent, { ...BY_IMPORTANCE, maxTokens, touch: true });
    expect(memories).toHaveLength(2);
    const kept = new Set(memories.map((m) => m.id));
    for (const m of memories) expect(m.lastAccessedAt).toBe(NOW);
    for (const s of stored) {
      const got = (await (await t.call("GET", `/v1/agents/${agent}/memories/${s.id}`)).json()) as Memory;
      expect(got.lastAccessedAt).toBe(kept.has(s.id) ? NOW : s.lastAccessedAt);
    }
  });

  it("rejects a budget out of range and an unknown format, naming the field", async () => {
    const agent = uniq("budget-bad");
    for (const [body, field] of [
      [{ maxTokens: 0 }, "body.maxTokens"],
      [{ maxTokens: 200_001 }, "body.maxTokens"],
      [{ format: "xml" }, "body.format"],
    ] as const) {
      const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { details: { field: string } } }).error.details.field).toBe(
        field,
      );
    }
  });
});

describe("format text", () => {
  it("is stable: header, one line per memory, reflections marked with their citations", async () => {
    const agent = uniq("format");
    const [a, b] = await seed(agent, [
      {
        description: "CI failed on main\n  after the   merge",
        importance: 9,
        createdAt: "2026-01-10T09:30:00Z",
      },
      { description: "Grace reviewed the fix", importance: 6, createdAt: "2026-01-10T10:05:59Z" },
    ]);
    const [r] = await seed(agent, [
      {
        description: "Main breaks after merges",
        kind: "reflection",
        importance: 8,
        createdAt: "2026-01-10T11:00:00Z",
        citations: [a?.id, b?.id],
      },
    ]);
    const expected = [
      "Relevant memories (most relevant first):",
      "- [2026-01-10 09:30 UTC] (observation) CI failed on main after the merge",
      "- [2026-01-10 11:00 UTC] (reflection) ★ Main breaks after merges [cites 2]",
      "- [2026-01-10 10:05 UTC] (observation) Grace reviewed the fix",
    ].join("\n");
    expect((await retrieve(agent, { ...BY_IMPORTANCE, format: "text" })).context?.text).toBe(expected);

    // A deleted source: the reflection drawn from it goes with it (docs/adr/0034).
    expect((await t.call("DELETE", `/v1/agents/${agent}/memories/${b?.id}`)).status).toBe(200);
    const after = await retrieve(agent, { ...BY_IMPORTANCE, format: "text" });
    expect(after.context?.text).toBe(
      [
        "Relevant memories (most relevant first):",
        "- [2026-01-10 09:30 UTC] (observation) CI failed on main after the merge",
      ].join("\n"),
    );
    expect(after.memories.find((m) => m.id === r?.id)).toBeUndefined();
  });

  it("uses the configured encoding", async () => {
    const cl = await startTestSystem({ env: { TOKENIZER_ENCODING: "cl100k_base" } });
    try {
      const agent = uniq("encoding");
      await cl.call("POST", `/v1/agents/${agent}/memories`, { description: "héllo wörld ✓", importance: 3 });
      const res = await cl.call("POST", `/v1/agents/${agent}/retrieve`, { maxTokens: 500, format: "text" });
      const { context } = (await res.json()) as Answer;
      expect(context?.encoding).toBe("cl100k_base");
      expect(context?.tokens).toBe(createTokenCounter("cl100k_base")(context?.text ?? ""));
    } finally {
      await cl.close();
    }
  });
});
