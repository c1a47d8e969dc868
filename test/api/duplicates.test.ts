import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  collapseDuplicates,
  DUPLICATE_POOL,
  duplicateKey,
  nextPool,
} from "../../src/memory/retrieve/ranking/duplicates";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// Duplicates take one place in the top k (ranking/duplicates.ts, docs/adr/0030): the
// default folds copies into the best-ranked one and counts them; `paper` and
// collapseDuplicates false rank every copy; a stream with more copies than the pool still gets
// k distinct memories; the retrieval log and the touch see only what was returned.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

type Hit = { id: string; description: string; duplicates: number; lastAccessedAt: string };
type Answer = {
  memories: Hit[];
  ranking: { collapseDuplicates: boolean; source: { collapseDuplicates: string } };
};
const path = (a: string) => `/v1/agents/${encodeURIComponent(a)}`;
const DIMS = 64;
/** A unit vector along `axis`, a little towards axis + 1 by `tilt`: memories near the query differ by tilt. */
const vec = (axis: number, tilt = 0) =>
  Array.from({ length: DIMS }, (_, i) => (i === axis ? 1 : i === axis + 1 ? tilt : 0));

async function store(agent: string, memories: unknown[]): Promise<{ id: string }[]> {
  const res = await t.call("POST", `${path(agent)}/memories`, { memories });
  expect(res.status).toBe(201);
  return ((await res.json()) as { memories: { id: string }[] }).memories;
}
async function retrieve(agent: string, body: object): Promise<Answer> {
  const res = await t.call("POST", `${path(agent)}/retrieve`, {
    queryEmbedding: vec(0),
    touch: false,
    ...body,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

describe("duplicate keys", () => {
  it("ignore case, spacing, punctuation and symbols, but not words, digits or the kind", () => {
    const key = (d: string, kind = "observation") => duplicateKey(kind, d);
    expect(key("Created tag v1.2.0 in acme/api")).toBe(key("  created TAG v1.2.0 in acme/api! "));
    expect(key("Alice: likes — tea")).toBe(key("alice likes tea"));
    expect(key("Created tag v1.2.0")).not.toBe(key("Created tag v1.3.0"));
    expect(key("Alice lives in Paris")).not.toBe(key("Alice lives in Berlin"));
    expect(key("same words", "reflection")).not.toBe(key("same words"));
  });

  it("keep the best of each group in order, count the rest, and say when the pool ran short", () => {
    const rows = ["a", "b", "A!", "c", "a", "d"].map((description, i) => ({
      id: `m${i}`,
      kind: "observation",
      description,
    }));
    const got = collapseDuplicates(rows, 3, 6);
    expect(got.rows.map((r) => [r.id, r.duplicates])).toEqual([
      ["m0", 2],
      ["m1", 0],
      ["m3", 0],
    ]);
    expect(got.complete).toBe(true);
    // Five of six distinct memories asked, six rows from a pool of six: more may exist.
    expect(collapseDuplicates(rows, 5, 6).complete).toBe(false);
    // Fewer rows than the pool: the candidates were all there.
    expect(collapseDuplicates(rows, 5, 7).complete).toBe(true);
  });

  it("grow the pool by the share of distinct memories seen, at least doubling it", () => {
    // 2 distinct among 60, 10 wanted: 1.5 × 10 × 60 / 2 = 450 (one more round, not three doublings).
    expect(nextPool(60, 2, 10)).toBe(450);
    expect(nextPool(60, 9, 10)).toBe(120);
    expect(nextPool(60, 0, 10)).toBe(900);
  });
});

describe("retrieve with duplicates", () => {
  it("gives identical observations one place in the default's top k, the best standing for the rest", async () => {
    const agent = uniq("dups");
    const copies = await store(
      agent,
      Array.from({ length: 5 }, (_, i) => ({
        description: i % 2 ? "created tag v1.2.0 in acme/api" : "Created tag v1.2.0 in acme/api.",
        embedding: vec(0),
        importance: 3,
        createdAt: `2026-03-02T10:0${i}:00Z`,
      })),
    );
    await store(
      agent,
      Array.from({ length: 4 }, (_, i) => ({
        description: `deployed build ${i} of acme/api`,
        embedding: vec(0, 0.3 + i * 0.2),
        importance: 3,
        createdAt: `2026-03-01T10:0${i}:00Z`,
      })),
    );
    const def = await retrieve(agent, { query: "which tag was created", k: 3 });
    expect(def.ranking.collapseDuplicates).toBe(true);
    expect(def.ranking.source.collapseDuplicates).toBe("preset");
    expect(def.memories).toHaveLength(3);
    const tags = def.memories.filter((m) => m.description.toLowerCase().startsWith("created tag"));
    expect(tags).toHaveLength(1);
    expect(tags[0]?.duplicates).toBe(4);
    expect(copies.map((c) => c.id)).toContain(tags[0]?.id);
    expect(def.memories.filter((m) => m !== tags[0]).every((m) => m.duplicates === 0)).toBe(true);

    // The text context says how often it was seen.
    const text = (await (
      await t.call("POST", `${path(agent)}/retrieve`, {
        query: "which tag was created",
        queryEmbedding: vec(0),
        k: 3,
        touch: false,
        format: "text",
      })
    ).json()) as { context: { text: string } };
    expect(text.context.text).toMatch(/created tag v1\.2\.0 in acme\/api\.? \[seen 5 times\]/i);

    // Off by request, and in the paper preset: every copy ranks on its own.
    for (const body of [{ collapseDuplicates: false }, { preset: "paper" }]) {
      const all = await retrieve(agent, { query: "which tag was created", k: 3, ...body });
      expect(all.ranking.collapseDuplicates).toBe(false);
      expect(all.memories.every((m) => m.description.toLowerCase().startsWith("created tag"))).toBe(true);
      expect(all.memories.every((m) => m.duplicates === 0)).toBe(true);
    }

    // An agent's default applies, and the request still wins over it.
    const put = await t.call("PUT", `${path(agent)}/settings`, { retrieval: { collapseDuplicates: false } });
    expect(put.status).toBe(200);
    const agentOff = await retrieve(agent, { query: "which tag was created", k: 3 });
    expect(agentOff.ranking.source.collapseDuplicates).toBe("agent");
    expect(agentOff.memories.filter((m) => m.duplicates > 0)).toHaveLength(0);
    const requestOn = await retrieve(agent, {
      query: "which tag was created",
      k: 3,
      collapseDuplicates: true,
    });
    expect(requestOn.memories.filter((m) => m.duplicates === 4)).toHaveLength(1);
  });

  it("still answers k distinct memories when one memory has more copies than the pool", async () => {
    const agent = uniq("dups-many");
    const n = DUPLICATE_POOL + 20;
    await store(
      agent,
      Array.from({ length: n }, () => ({ description: "heartbeat ok", embedding: vec(0), importance: 5 })),
    );
    const others = await store(
      agent,
      Array.from({ length: 3 }, (_, i) => ({
        description: `disk ${i} nearly full`,
        embedding: vec(0, 1 + i),
        importance: 5,
      })),
    );
    const got = await retrieve(agent, { query: "status", k: 4 });
    expect(got.memories).toHaveLength(4);
    expect(got.memories[0]?.description).toBe("heartbeat ok");
    // All the copies were ranked (the pool doubled until it held them and more), so all are counted.
    expect(got.memories[0]?.duplicates).toBe(n - 1);
    expect(new Set(got.memories.slice(1).map((m) => m.id))).toEqual(new Set(others.map((o) => o.id)));
  });

  it("touches only the memories returned, not the copies folded into them", async () => {
    const agent = uniq("dups-touch");
    const copies = await store(
      agent,
      Array.from({ length: 3 }, () => ({
        description: "the cache was flushed",
        embedding: vec(0),
        importance: 4,
        createdAt: "2026-01-01T00:00:00Z",
      })),
    );
    const got = await retrieve(agent, { query: "cache", k: 2, touch: true, now: "2026-02-01T00:00:00Z" });
    const kept = got.memories.find((m) => m.duplicates === 2);
    expect(kept).toBeDefined();
    for (const c of copies) {
      const res = await t.call("GET", `${path(agent)}/memories/${c.id}`);
      const m = (await res.json()) as Hit;
      expect(m.lastAccessedAt).toBe(
        c.id === kept?.id ? "2026-02-01T00:00:00.000Z" : "2026-01-01T00:00:00.000Z",
      );
    }
  });
});
