import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { agentsWithExpired } from "../../src/memory/deletion/purge-expired";
import { retainAgent } from "../../src/memory/retention/retain";
import { SETUP_MS, uniq } from "../support/env";
import { stubEmbedding } from "../support/stub-vectors";
import { fixedClock, startTestSystem, type TestSystem } from "../support/system";

// Delete what you mean: by ids, by filter, a dry run that counts, and per-memory expiry — all
// through the deletion path (derived reflections go, superseded memories come back, the lexical
// statistics stay true).
const s = uniq("del");
// In the future, not the past: the test database is shared, and another file's system, on the real
// clock, has its sweep retain any agent holding memories expired by then (ours included).
const clock = fixedClock("2099-03-01T12:00:00.000Z");
const enc = encodeURIComponent;
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({ clock });
}, SETUP_MS);
afterAll(() => t.close());

type Created = { id: string };
async function write(agent: string, m: Record<string, unknown>): Promise<string> {
  const description = String(m.description);
  const res = await t.call("POST", `/v1/agents/${enc(agent)}/memories`, {
    importance: 5,
    embedding: stubEmbedding(description),
    ...m,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as Created).id;
}
const del = (agent: string, body: unknown) =>
  t.call("POST", `/v1/agents/${enc(agent)}/memories/delete`, body);
const ids = async (agent: string) =>
  (
    (await (await t.call("GET", `/v1/agents/${enc(agent)}/memories?limit=500`)).json()) as {
      memories: { id: string; supersededBy: string | null }[];
    }
  ).memories;
const retrieved = async (agent: string, query: string) =>
  (
    (await (await t.call("POST", `/v1/agents/${enc(agent)}/retrieve`, { query, k: 50 })).json()) as {
      memories: { id: string }[];
    }
  ).memories.map((m) => m.id);

/** The lexical statistics as kept (agent_lexicon) and as they should be (counted from the stream). */
async function lexicon(agent: string) {
  const [kept] = await queryRows<{ docs: string | null; len: string | null }>(
    t.system.database.db,
    sql`SELECT sum(docs) AS docs, sum(length_sum) AS len FROM agent_lexicon WHERE agent_id = ${agent}`,
  );
  const [true_] = await queryRows<{ docs: string; len: string | null }>(
    t.system.database.db,
    sql`SELECT count(*) AS docs, sum(length(description_tsv)) AS len FROM memories WHERE agent_id = ${agent}`,
  );
  return {
    kept: [Number(kept?.docs ?? 0), Number(kept?.len ?? 0)],
    true: [Number(true_?.docs), Number(true_?.len ?? 0)],
  };
}

describe("POST /memories/delete", () => {
  it("by filter: a dry run counts, the delete takes derived reflections along and keeps the statistics true", async () => {
    const agent = `f-${s}`;
    const a = await write(agent, { description: "deploy failed on friday", metadata: { session: "s1" } });
    await write(agent, { description: "deploy retried on saturday", metadata: { session: "s1" } });
    const c = await write(agent, {
      description: "lunch with the team",
      metadata: { session: "s2", source: "chat" },
    });
    const plan = await write(agent, { description: "plan the next deploy", kind: "plan" });
    const reflection = await write(agent, {
      description: "deploys fail late in the week",
      kind: "reflection",
      citations: [a],
    });

    const dry = await del(agent, { filter: { metadata: { session: "s1" } }, dryRun: true });
    expect(dry.status).toBe(200);
    expect(await dry.json()).toMatchObject({ dryRun: true, count: 2, byKind: { observation: 2 } });
    expect(await ids(agent)).toHaveLength(5);

    const res = await del(agent, { filter: { metadata: { session: "s1" } } });
    expect(await res.json()).toEqual({
      dryRun: false,
      count: 3,
      byKind: { observation: 2, reflection: 1 },
      derived: { reflection: 1 },
      more: false,
    });
    expect((await ids(agent)).map((m) => m.id).sort()).toEqual([c, plan].sort());
    expect(await retrieved(agent, "deploy failed late in the week")).not.toContain(reflection);
    const stats = await lexicon(agent);
    expect(stats.kept).toEqual(stats.true);

    // source is metadata.source; kinds and a createdAt range narrow as in list.
    expect(await (await del(agent, { filter: { source: "chat" } })).json()).toMatchObject({ count: 1 });
    expect(
      await (await del(agent, { filter: { kinds: ["plan"], until: "2020-01-01T00:00:00Z" } })).json(),
    ).toMatchObject({
      count: 0,
    });
    expect(
      await (await del(agent, { filter: { kinds: ["plan"], since: "2026-01-01T00:00:00Z" } })).json(),
    ).toMatchObject({
      count: 1,
      byKind: { plan: 1 },
    });
    expect(await ids(agent)).toEqual([]);
  });

  it("by ids: bounded, reports what it did not find, and releases what a deleted memory had superseded", async () => {
    const agent = `i-${s}`;
    const old = await write(agent, { description: "alice lives in paris" });
    const current = await write(agent, { description: "alice lives in berlin", supersedes: [old] });
    expect((await ids(agent)).find((m) => m.id === old)?.supersededBy).toBe(current);
    const res = await del(agent, { ids: [current, "mem_nothere00000000000"] });
    expect(await res.json()).toMatchObject({
      count: 1,
      byKind: { observation: 1 },
      notFound: ["mem_nothere00000000000"],
    });
    expect(await ids(agent)).toEqual([expect.objectContaining({ id: old, supersededBy: null })]);
    const stats = await lexicon(agent);
    expect(stats.kept).toEqual(stats.true);
  });

  it("answers 400 naming the field for no selection, both, an empty filter or too many ids", async () => {
    const agent = `v-${s}`;
    const cases: [unknown, string][] = [
      [{}, "body.ids"],
      [{ ids: ["mem_a"], filter: { kinds: ["plan"] } }, "body.ids"],
      [{ filter: {} }, "filter"],
      [{ ids: Array.from({ length: 1001 }, (_, i) => `mem_${i}`) }, "body.ids"],
      [{ filter: { kinds: ["dream"] } }, "body.filter.kinds.0"],
    ];
    for (const [body, field] of cases) {
      const res = await del(agent, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(((await res.json()) as { error: { details: { field: string } } }).error.details.field).toBe(
        field,
      );
    }
  });
});

describe("expiresAt", () => {
  it("an expired memory is never ranked, listed, shown or counted, from the moment it expires", async () => {
    const agent = `e-${s}`;
    clock.set("2099-03-01T12:00:00.000Z");
    const keep = await write(agent, { description: "the release ships on monday" });
    const brief = await write(agent, {
      description: "the release password is hunter2",
      expiresAt: "2099-03-01T13:00:00.000Z",
    });
    const patched = await write(agent, { description: "the release notes are drafted" });
    const patch = await t.call("PATCH", `/v1/agents/${enc(agent)}/memories/${patched}`, {
      expiresAt: "2099-03-01T12:30:00.000Z",
    });
    expect(((await patch.json()) as { expiresAt: string }).expiresAt).toBe("2099-03-01T12:30:00.000Z");
    expect(await retrieved(agent, "release")).toHaveLength(3);

    clock.set("2099-03-01T12:45:00.000Z");
    expect(await retrieved(agent, "release")).toEqual(expect.not.arrayContaining([patched]));
    expect((await retrieved(agent, "release")).sort()).toEqual([keep, brief].sort());

    clock.set("2099-03-01T13:00:00.000Z");
    expect(await retrieved(agent, "release password")).toEqual([keep]);
    expect((await ids(agent)).map((m) => m.id)).toEqual([keep]);
    expect((await t.call("GET", `/v1/agents/${enc(agent)}/memories/${brief}`)).status).toBe(404);
    const ctx = await t.call("POST", `/v1/agents/${enc(agent)}/retrieve`, {
      query: "release password",
      maxTokens: 500,
      format: "text",
    });
    expect(JSON.stringify(await ctx.json())).not.toContain("hunter2");
    const stats = await lexicon(agent);
    expect(stats.kept).toEqual(stats.true);
  });

  it("retention removes expired memories of an agent nobody reads, and the sweep finds the agent", async () => {
    const agent = `r-${s}`;
    clock.set("2099-03-01T12:00:00.000Z");
    await write(agent, { description: "short lived", expiresAt: "2099-03-01T12:00:01.000Z" });
    await write(agent, { description: "long lived" });
    const later = new Date("2099-03-01T12:00:02.000Z");
    expect(await agentsWithExpired(t.system.database.db, later, 1_000)).toContain(agent);
    clock.set(later.toISOString());
    expect(await retainAgent(t.system.services, agent)).toEqual({ deleted: 1 });
    expect(await agentsWithExpired(t.system.database.db, later, 1_000)).not.toContain(agent);
    const [n] = await queryRows<{ n: string }>(
      t.system.database.db,
      sql`SELECT count(*) AS n FROM memories WHERE agent_id = ${agent}`,
    );
    expect(Number(n?.n)).toBe(1);
  });
});
