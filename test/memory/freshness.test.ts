import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { fixedClock, startTestSystem, type TestSystem, without } from "../support/system";
import { until } from "../support/until";

// The freshness contract (docs/adr/0035): every retrieve says how many of the agent's memories
// were not yet searchable (waiting for their vector) and how old the oldest was; with
// waitSearchableMs it first waits, bounded, until what was written before it is searchable.

type Fresh = {
  pending: number;
  oldestPendingMs: number | null;
  embeddedInline: number;
  waited?: { ms: number; complete: boolean };
};
const T0 = "2026-03-01T12:00:00.000Z";

describe("freshness, enrichment held", () => {
  let t: TestSystem;
  const clock = fixedClock(T0);
  beforeAll(async () => {
    t = await startTestSystem({ clock, announce: without("memories.pending") });
  });
  afterAll(() => t.close());

  it("counts the memories still waiting for a vector and the oldest one's age, by the service's clock", async () => {
    const agent = uniq("fresh");
    const ask = async (body: object = {}) => {
      const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
        query: "deploy",
        relevance: "lexical",
        ...body,
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { freshness: Fresh }).freshness;
    };
    expect(await ask()).toEqual({ pending: 0, oldestPendingMs: null, embeddedInline: 0 });
    clock.set(T0);
    expect(
      (await t.call("POST", `/v1/agents/${agent}/memories`, { description: "the deploy failed" })).status,
    ).toBe(201);
    clock.set("2026-03-01T12:00:30.000Z");
    const batch = { memories: [{ description: "deploy again" }, { description: "rolled back" }] };
    expect((await t.call("POST", `/v1/agents/${agent}/memories`, batch)).status).toBe(201);
    // One with its vector given: searchable at once.
    const given = { description: "vector given", embedding: [1, 0, 0], embeddingModel: "fresh-3d" };
    expect((await t.call("POST", `/v1/agents/${agent}/memories`, given)).status).toBe(201);
    clock.set("2026-03-01T12:01:30.000Z");
    expect(await ask()).toEqual({ pending: 3, oldestPendingMs: 90_000, embeddedInline: 0 });
  });

  it("waits no longer than asked when nothing makes them searchable, and says so", async () => {
    const agent = uniq("fresh-wait");
    expect((await t.call("POST", `/v1/agents/${agent}/memories`, { description: "stuck" })).status).toBe(201);
    const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
      query: "stuck",
      relevance: "lexical",
      waitSearchableMs: 150,
    });
    const f = ((await res.json()) as { freshness: Fresh }).freshness;
    expect(f.pending).toBe(1);
    expect(f.waited?.complete).toBe(false);
    expect(f.waited?.ms).toBeGreaterThanOrEqual(150);
    expect(f.waited?.ms).toBeLessThan(5_000);
  });

  it("rejects a wait past the limit, naming the field", async () => {
    const res = await t.call("POST", `/v1/agents/${uniq("fresh-bad")}/retrieve`, {
      query: "x",
      waitSearchableMs: 60_000,
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain("waitSearchableMs");
  });
});

describe("freshness, with the pipeline running", () => {
  let own: Awaited<ReturnType<typeof ownDatabase>>;
  let t: TestSystem;
  beforeAll(async () => {
    own = await ownDatabase("freshness");
    // Batch threads at normal priority: niced, a loaded machine starves them past any bound.
    t = await startTestSystem({
      env: { DATABASE_URL: own.url, EMBEDDING_PROVIDER: "offline", MEMSTREAM_EMBED_BATCH_NICE: "0" },
    });
    t.system.jobs.startWorkers();
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await own?.drop();
  });

  it("a retrieve that waits finds everything written before it searchable", async () => {
    const agent = uniq("fresh-pipe");
    // The offline model loads on the first batch (seconds on a loaded machine): warm it first.
    const warm = uniq("fresh-warm");
    expect((await t.call("POST", `/v1/agents/${warm}/memories`, { description: "warm up" })).status).toBe(
      201,
    );
    await until("the pipeline warm", async () => {
      const res = await t.call("POST", `/v1/agents/${warm}/retrieve`, {
        query: "warm",
        relevance: "lexical",
      });
      return ((await res.json()) as { freshness: Fresh }).freshness.pending === 0 ? true : null;
    });
    const memories = Array.from({ length: 30 }, (_, i) => ({
      description: `release note ${i} about the billing service`,
    }));
    expect((await t.call("POST", `/v1/agents/${agent}/memories`, { memories })).status).toBe(201);
    // A wait that completes ranks with nothing written before it pending; on a machine too loaded
    // for the bound, the next retrieve waits again (never a fixed sleep).
    const body = await until("a wait that completes", async () => {
      const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
        query: "billing service release",
        waitSearchableMs: 10_000,
        k: 30,
      });
      expect(res.status).toBe(200);
      const b = (await res.json()) as { freshness: Fresh; memories: { status: { embedding: string } }[] };
      expect(b.freshness.waited?.ms).toBeLessThan(15_000);
      return b.freshness.waited?.complete ? b : null;
    });
    expect(body.freshness).toMatchObject({ pending: 0, oldestPendingMs: null, waited: { complete: true } });
    expect(body.memories).toHaveLength(30);
    expect(body.memories.every((m) => m.status.embedding === "ready")).toBe(true);
  }, 90_000);
});
