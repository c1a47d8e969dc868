import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { retainAgent } from "../../src/memory/retention/retain";
import { SETUP_MS, uniq } from "../support/env";
import {
  type EmbeddedBeside,
  fixedClock,
  startEmbeddedBeside,
  startTestSystem,
  type TestSystem,
} from "../support/system";

// The history of a memory's edits: each PATCH that changes its description, importance or metadata
// keeps the values it replaced; GET …/history answers them newest first; they go with the memory.
const s = uniq("hist");
// In the future, not the past: the test database is shared, and another file's system, on the real
// clock, has its sweep retain any agent holding memories expired by then (ours included).
const clock = fixedClock("2099-03-01T12:00:00.000Z");
const enc = encodeURIComponent;
type Call = (method: string, path: string, body?: unknown) => Promise<Response>;
type Revision = {
  revision: number;
  description: string;
  importance: number | null;
  metadata: Record<string, unknown>;
  replacedAt: string;
};
type History = { memoryId: string; revisions: Revision[]; nextCursor: string | null };

let pg: TestSystem;
let lite: EmbeddedBeside;
beforeAll(async () => {
  pg = await startTestSystem({ clock });
  lite = await startEmbeddedBeside(pg, { clock });
}, SETUP_MS);
afterAll(async () => {
  await lite?.system.close();
  await pg?.close();
});

const backends = () => ({ postgres: pg.call, pglite: lite.call });

async function write(call: Call, agent: string, m: Record<string, unknown>): Promise<string> {
  const res = await call("POST", `/v1/agents/${enc(agent)}/memories`, { importance: 3, ...m });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}
async function patch(call: Call, agent: string, id: string, body: unknown) {
  const res = await call("PATCH", `/v1/agents/${enc(agent)}/memories/${id}`, body);
  expect(res.status, await res.clone().text()).toBe(200);
}
const history = (call: Call, agent: string, id: string, query = "") =>
  call("GET", `/v1/agents/${enc(agent)}/memories/${id}/history${query}`);
async function revisions(call: Call, agent: string, id: string): Promise<Revision[]> {
  const res = await history(call, agent, id);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as History).revisions;
}
const kept = async (agent: string) =>
  Number(
    (
      await queryRows<{ n: string | number }>(
        pg.system.database.db,
        sql`SELECT count(*) AS n FROM memory_revisions WHERE agent_id = ${agent}`,
      )
    )[0]?.n,
  );

describe.each(["postgres", "pglite"] as const)(
  "memory history on %s",
  (backend) => {
    it("records each changing PATCH in order, answers newest first a page at a time, and a no-op PATCH adds none", async () => {
      const call = backends()[backend];
      const agent = `order-${backend}-${s}`;
      const id = await write(call, agent, {
        description: "alice lives in paris",
        metadata: { a: 1, b: [1, 2] },
      });
      expect(await revisions(call, agent, id)).toEqual([]);

      clock.set("2099-03-01T12:01:00.000Z");
      await patch(call, agent, id, { description: "alice lives in berlin", importance: 3 });
      clock.set("2099-03-01T12:02:00.000Z");
      await patch(call, agent, id, { importance: 7 });
      clock.set("2099-03-01T12:03:00.000Z");
      await patch(call, agent, id, { metadata: { city: "berlin" } });

      // Changing nothing of the three keeps nothing: the same values (metadata in another key order),
      // or only the kind or the expiry.
      await patch(call, agent, id, { description: "alice lives in berlin", importance: 7 });
      await patch(call, agent, id, { metadata: { city: "berlin" } });
      await patch(call, agent, id, { kind: "plan", expiresAt: null });
      await patch(call, agent, id, { metadata: { x: { p: 1, q: 2 }, city: "berlin" } });
      await patch(call, agent, id, { metadata: { city: "berlin", x: { q: 2, p: 1 } } });

      const all = await revisions(call, agent, id);
      expect(all).toEqual([
        {
          revision: 4,
          description: "alice lives in berlin",
          importance: 7,
          metadata: { city: "berlin" },
          replacedAt: "2099-03-01T12:03:00.000Z",
        },
        {
          revision: 3,
          description: "alice lives in berlin",
          importance: 7,
          metadata: { a: 1, b: [1, 2] },
          replacedAt: "2099-03-01T12:03:00.000Z",
        },
        {
          revision: 2,
          description: "alice lives in berlin",
          importance: 3,
          metadata: { a: 1, b: [1, 2] },
          replacedAt: "2099-03-01T12:02:00.000Z",
        },
        {
          revision: 1,
          description: "alice lives in paris",
          importance: 3,
          metadata: { a: 1, b: [1, 2] },
          replacedAt: "2099-03-01T12:01:00.000Z",
        },
      ]);

      // A page at a time: the cursor resumes below the last revision shown.
      const first = (await (await history(call, agent, id, "?limit=3")).json()) as History;
      expect(first.revisions.map((r) => r.revision)).toEqual([4, 3, 2]);
      expect(first.nextCursor).toEqual(expect.any(String));
      const rest = (await (
        await history(call, agent, id, `?limit=3&cursor=${first.nextCursor}`)
      ).json()) as History;
      expect(rest).toMatchObject({ memoryId: id, nextCursor: null });
      expect(rest.revisions.map((r) => r.revision)).toEqual([1]);
    });
  },
  SETUP_MS,
);

describe("memory history: errors and tenancy", () => {
  it("answers 404 for an unknown memory and for another agent's, 400 naming a bad cursor or limit", async () => {
    const agent = `mine-${s}`;
    const other = `other-${s}`;
    const id = await write(pg.call, agent, { description: "secret plan" });
    await patch(pg.call, agent, id, { description: "a more secret plan" });
    expect(await revisions(pg.call, agent, id)).toHaveLength(1);

    for (const res of [
      await history(pg.call, other, id),
      await history(pg.call, agent, "mem_nothere00000000000"),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: "not_found" } });
    }
    for (const [query, field] of [
      ["?cursor=bm90LWEtbnVtYmVy", "cursor"],
      ["?limit=0", "query.limit"],
    ] as const) {
      const res = await history(pg.call, agent, id, query);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: "invalid_request", details: { field } } });
    }
  });
});

describe("memory history: erased with the memory", () => {
  it("goes with a delete by id, by ids, by filter, expiry, retention and the agent's erasure", async () => {
    const agent = `gone-${s}`;
    clock.set("2099-03-01T12:00:00.000Z");
    const edited = async (description: string, m: Record<string, unknown> = {}) => {
      const id = await write(pg.call, agent, { description, ...m });
      await patch(pg.call, agent, id, { description: `${description}, edited` });
      await patch(pg.call, agent, id, { importance: 9 });
      return id;
    };
    const byId = await edited("one");
    const byIds = await edited("two");
    await edited("three", { metadata: { drop: true } });
    const expiring = await edited("four", { expiresAt: "2099-03-01T13:00:00.000Z" });
    const retained = await edited("five", { expiresAt: "2099-03-01T14:00:00.000Z" });
    const kept1 = await edited("six");
    await edited("seven");
    expect(await kept(agent)).toBe(14);

    expect((await pg.call("DELETE", `/v1/agents/${enc(agent)}/memories/${byId}`)).status).toBe(200);
    expect(await kept(agent)).toBe(12);
    const ids = await pg.call("POST", `/v1/agents/${enc(agent)}/memories/delete`, { ids: [byIds] });
    expect(await ids.json()).toMatchObject({ count: 1 });
    expect(await kept(agent)).toBe(10);
    const filtered = await pg.call("POST", `/v1/agents/${enc(agent)}/memories/delete`, {
      filter: { metadata: { drop: true } },
    });
    expect(await filtered.json()).toMatchObject({ count: 1 });
    expect(await kept(agent)).toBe(8);

    // Expired: the next read purges it, and its history is gone with it (404, no rows).
    clock.set("2099-03-01T13:30:00.000Z");
    expect((await history(pg.call, agent, expiring)).status).toBe(404);
    expect(await kept(agent)).toBe(6);
    // Retention's run (no read before it) removes the other expired one.
    clock.set("2099-03-01T14:30:00.000Z");
    expect(await retainAgent(pg.system.services, agent)).toEqual({ deleted: 1 });
    expect((await history(pg.call, agent, retained)).status).toBe(404);
    expect(await kept(agent)).toBe(4);
    expect(await revisions(pg.call, agent, kept1)).toHaveLength(2);

    // The erasure removes the rest and counts them in its receipt.
    const erase = await pg.call("DELETE", `/v1/agents/${enc(agent)}`);
    expect(erase.status).toBe(200);
    const { erasureId } = (await erase.json()) as { erasureId: string };
    const receipt = await pg.call("GET", `/v1/agents/${enc(agent)}/erasures/${erasureId}`);
    expect(await receipt.json()).toMatchObject({ rows: { memories: 2, memory_revisions: 4 } });
    expect(await kept(agent)).toBe(0);
    expect((await history(pg.call, agent, kept1)).status).toBe(404);
  });
});

describe("memory history: export and import", () => {
  it("travels in the portable stream and reads back the same in the target", async () => {
    const from = `export-${s}`;
    const to = `import-${s}`;
    clock.set("2099-03-02T09:00:00.000Z");
    const id = await write(pg.call, from, { description: "the release is on friday", metadata: { v: 1 } });
    await write(pg.call, from, { description: "never edited" });
    clock.set("2099-03-02T10:00:00.000Z");
    await patch(pg.call, from, id, { description: "the release is on monday", metadata: { v: 2 } });
    clock.set("2099-03-02T11:00:00.000Z");
    await patch(pg.call, from, id, { importance: 8 });
    const before = await revisions(pg.call, from, id);
    expect(before.map((r) => r.revision)).toEqual([2, 1]);

    const file = await (await pg.call("GET", `/v1/agents/${enc(from)}/export`)).text();
    const lines = file.trimEnd().split("\n").slice(1);
    expect(lines.filter((l) => l.includes('"history"'))).toHaveLength(1);
    const res = await pg.app.request(`/v1/agents/${enc(to)}/import`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body: file,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await revisions(pg.call, to, id)).toEqual(before);
    expect(await kept(to)).toBe(2);
  });
});
