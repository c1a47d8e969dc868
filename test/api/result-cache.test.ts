import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { uniq } from "../support/env";
import { fixedClock, startTestSystem, type TestSystem } from "../support/system";

// The result cache, end to end on PostgreSQL with two API processes on one database: an identical
// retrieve within the agent's TTL is answered from the cache (cachedAt, the same retrievalId, the
// touch still made), and any write to the agent through either process — a new memory, an edit, a
// delete, new settings — or DELETE …/cache makes the next one rank again; the TTL ends it too.
const T0 = "2026-03-01T12:00:00.000Z";
const clock = fixedClock(T0);
let a: TestSystem;
let b: TestSystem;
beforeAll(async () => {
  // The deployment default is off; the agent turns it on in its settings.
  [a, b] = await Promise.all([startTestSystem({ clock }), startTestSystem({ clock })]);
}, 60_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const agent = uniq("cached");
const path = (rest: string) => `/v1/agents/${agent}${rest}`;
const unit = (i: number) => Array.from({ length: 64 }, (_, j) => (j === i ? 1 : 0.01));
type Answer = {
  retrievalId: string;
  cachedAt?: string;
  memories: { id: string; description: string; lastAccessedAt: string }[];
};
const ask = async (sys: TestSystem, body: Record<string, unknown> = {}) => {
  const res = await sys.call("POST", path("/retrieve"), { queryEmbedding: unit(1), k: 3, ...body });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
};
const write = async (sys: TestSystem, description: string, i: number) => {
  const res = await sys.call("POST", path("/memories"), { description, importance: 5, embedding: unit(i) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
};
const hits = async (sys: TestSystem) =>
  (await sys.system.services.metrics.retrieveCache.get()).values.find((v) => v.labels.result === "hit")
    ?.value ?? 0;

describe("the result cache", () => {
  let first: Answer;
  let kept: string;

  it("is off by default: identical retrieves both rank", async () => {
    kept = await write(a, "the lighthouse keeper waves at noon", 1);
    await write(a, "the ferry leaves at six", 2);
    const [x, y] = [await ask(a), await ask(a)];
    expect(x.cachedAt).toBeUndefined();
    expect(y.cachedAt).toBeUndefined();
    expect(y.retrievalId).not.toBe(x.retrievalId);
  });

  it("answers an identical retrieve within the agent's TTL from the cache, and still touches", async () => {
    const set = await a.call("PUT", path("/settings"), { retrieveCacheTtlMs: 60_000 });
    expect(await set.json()).toMatchObject({
      retrieveCacheTtlMs: 60_000,
      effectiveRetrieveCacheTtlMs: 60_000,
    });
    const bad = await a.call("PUT", path("/settings"), { retrieveCacheTtlMs: 7_200_000 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("retrieveCacheTtlMs");

    first = await ask(a);
    expect(first.cachedAt).toBeUndefined();
    const before = await hits(a);
    clock.set("2026-03-01T12:00:05.000Z");
    // `touch` is not part of the key; key order in the body does not matter either.
    const again = await ask(a, { k: 3, touch: true });
    expect(again.cachedAt).toBe(T0);
    expect(again.retrievalId).toBe(first.retrievalId);
    expect(again.memories.map((m) => m.id)).toEqual(first.memories.map((m) => m.id));
    expect(await hits(a)).toBe(before + 1);
    // The touch was made at the hit's now, in the answer and in the database.
    expect(again.memories.every((m) => m.lastAccessedAt === "2026-03-01T12:00:05.000Z")).toBe(true);
    const [row] = await queryRows<{ at: string }>(
      a.system.services.db,
      sql`SELECT to_char(last_accessed_at AT TIME ZONE 'UTC', 'HH24:MI:SS') AS at FROM memories WHERE agent_id = ${agent} AND id = ${kept}`,
    );
    expect(row?.at).toBe("12:00:05");
    // Another request (k) is another entry.
    expect((await ask(a, { k: 2 })).cachedAt).toBeUndefined();
    // Waiting until everything is searchable always ranks.
    expect((await ask(a, { waitSearchableMs: 100 })).cachedAt).toBeUndefined();
  });

  it("ranks again after a write through another process", async () => {
    expect((await ask(a)).cachedAt).toBeDefined();
    await write(b, "the lighthouse lamp was replaced", 1);
    const fresh = await ask(a);
    expect(fresh.cachedAt).toBeUndefined();
    expect(fresh.memories.map((m) => m.description)).toContain("the lighthouse lamp was replaced");
    expect((await ask(a)).cachedAt).toBeDefined();
  });

  it("ranks again after an edit, a delete, new settings or a clear, and when the TTL ends", async () => {
    const changes: [string, () => Promise<Response>][] = [
      ["edit", () => b.call("PATCH", path(`/memories/${kept}`), { importance: 9 })],
      ["settings", () => b.call("PUT", path("/settings"), { reflectionThreshold: 50 })],
      ["clear", () => b.call("DELETE", path("/cache"))],
      ["delete", () => b.call("DELETE", path(`/memories/${kept}`))],
    ];
    for (const [what, change] of changes) {
      await ask(a);
      expect({ what, cached: (await ask(a)).cachedAt !== undefined }).toEqual({ what, cached: true });
      expect((await change()).status).toBeLessThan(300);
      expect({ what, cached: (await ask(a)).cachedAt !== undefined }).toEqual({ what, cached: false });
    }
    expect((await ask(a)).cachedAt).toBeDefined();
    clock.set("2026-03-01T12:02:00.000Z");
    expect((await ask(a)).cachedAt).toBeUndefined();
  });

  it("counts hits, misses and bypasses in /metrics", async () => {
    const text = await (await a.app.request("/metrics")).text();
    expect(text).toMatch(/memstream_retrieve_cache_total\{result="hit"\} [1-9]/);
    expect(text).toMatch(/memstream_retrieve_cache_total\{result="miss"\} [1-9]/);
  });
});
