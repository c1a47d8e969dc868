import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import type { Memory } from "../../src/memory/types";
import { uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { startTestSystem, type TestSystem } from "../support/system";
import { until } from "../support/until";

// Deletion reaches what was derived (issue 39 item 1, docs/adr/0034): deleting memories — by id,
// a document's sections, an outcome a lesson rests on — deletes in the same transaction the
// reflections and lessons citing them, and what cites those; the answer counts them per kind; no
// retrieve sees a derived memory without its evidence, even while the delete is half-way. An
// agent's erasure leaves a receipt with counts and no content. Own database: the in-process
// workers (lessons) sweep deployment-wide.
let own: Awaited<ReturnType<typeof ownDatabase>>;
let t: TestSystem;
beforeAll(async () => {
  own = await ownDatabase("derived");
  t = await startTestSystem({ env: { DATABASE_URL: own.url, EMBEDDING_PROVIDER: "offline" } });
  t.system.jobs.startWorkers();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await own?.drop();
});

const db = () => t.system.services.db;
const path = (agent: string) => `/v1/agents/${encodeURIComponent(agent)}`;

async function write(agent: string, body: object): Promise<Memory> {
  const res = await t.call("POST", `${path(agent)}/memories`, body);
  expect(res.status).toBe(201);
  return (await res.json()) as Memory;
}
const exists = async (agent: string, id: string) =>
  (await t.call("GET", `${path(agent)}/memories/${id}`)).status === 200;
async function retrieved(agent: string): Promise<string[]> {
  const res = await t.call("POST", `${path(agent)}/retrieve`, { query: "the deploy", k: 50, touch: false });
  expect(res.status).toBe(200);
  return ((await res.json()) as { memories: Memory[] }).memories.map((m) => m.id);
}

/** Three observations, a reflection on two of them, a reflection on that one, a reflection on the third. */
async function stream(agent: string) {
  const a = await write(agent, { description: "Ada deployed the billing service on Friday" });
  const b = await write(agent, { description: "The deploy broke the invoices page" });
  const c = await write(agent, { description: "Grace fixed the flaky deploy test" });
  const r1 = await write(agent, {
    kind: "reflection",
    description: "Friday deploys break things",
    citations: [a.id, b.id],
  });
  const r2 = await write(agent, {
    kind: "reflection",
    description: "Ada takes risks with deploys",
    citations: [r1.id],
  });
  const r3 = await write(agent, {
    kind: "reflection",
    description: "Grace keeps the tests healthy",
    citations: [c.id],
  });
  return { a, b, c, r1, r2, r3 };
}

describe("deleting a memory deletes what was derived from it", () => {
  it("by id: the reflections citing it and the reflection on those go; the answer counts them per kind", async () => {
    const agent = uniq("derived-id");
    const s = await stream(agent);
    const res = await t.call("DELETE", `${path(agent)}/memories/${s.a.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: s.a.id, kind: "observation", derived: { reflection: 2 } });
    for (const gone of [s.a, s.r1, s.r2]) expect(await exists(agent, gone.id), gone.description).toBe(false);
    for (const kept of [s.b, s.c, s.r3]) expect(await exists(agent, kept.id), kept.description).toBe(true);
    const ids = await retrieved(agent);
    expect(ids).not.toContain(s.r1.id);
    expect(ids).toContain(s.r3.id);
    // Nothing derived from b remains either way; deleting it now derives nothing more.
    const again = await t.call("DELETE", `${path(agent)}/memories/${s.b.id}`);
    expect(await again.json()).toEqual({ id: s.b.id, kind: "observation", derived: {} });
  });

  it("no retrieve sees a derived memory without its evidence, even while the delete waits half-way", async () => {
    const agent = uniq("derived-race");
    const s = await stream(agent);
    // Another transaction holds r1: the delete removes a, then waits to lock r1.
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    const holder = db().transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM memories WHERE agent_id = ${agent} AND id = ${s.r1.id} FOR SHARE`);
      locked();
      await held;
    });
    await isLocked;
    const deleting = t.call("DELETE", `${path(agent)}/memories/${s.a.id}`);
    await until("the delete waiting on r1", async () => {
      const [row] = await queryRows<{ n: number }>(
        db(),
        sql`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%FOR UPDATE%'`,
      );
      return Number(row?.n ?? 0) > 0 ? true : null;
    });
    // Half-way: a is deleted in the open transaction, r1 not yet; a retrieve sees the stream before.
    const during = await retrieved(agent);
    expect(during).toEqual(expect.arrayContaining([s.a.id, s.r1.id, s.r2.id]));
    release();
    await holder;
    expect((await deleting).status).toBe(200);
    const after = await retrieved(agent);
    for (const gone of [s.a, s.r1, s.r2]) expect(after).not.toContain(gone.id);
  });

  it("a document's sections: the reflection citing one goes with the document", async () => {
    const agent = uniq("derived-doc");
    const imported = await t.call("POST", `${path(agent)}/documents`, {
      source: "docs/deploy.md",
      content:
        "# Deploy\n\n## Friday\n\nNever deploy on Friday.\n\n## Rollback\n\nRoll back with the blue-green switch.",
    });
    expect(imported.status).toBe(201);
    const listed = await t.call("GET", `${path(agent)}/memories?kind=document`);
    const sections = ((await listed.json()) as { memories: Memory[] }).memories;
    expect(sections.length).toBeGreaterThan(0);
    const r = await write(agent, {
      kind: "reflection",
      description: "The team avoids Friday deploys",
      citations: [sections[0]?.id],
    });
    const res = await t.call("DELETE", `${path(agent)}/documents?source=docs/deploy.md`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      source: "docs/deploy.md",
      deleted: sections.length,
      derived: { reflection: 1 },
    });
    expect(await exists(agent, r.id)).toBe(false);
  });

  it("an outcome: the lesson resting on it goes, with its revisions", async () => {
    const agent = uniq("derived-lesson");
    const task = { task: "Deploy the billing service to staging", taskType: "deploy" };
    const outcomes: Memory[] = [];
    for (const o of [
      { ...task, success: false, strategy: "in-place restart", error: "port 8080 in use" },
      { ...task, success: false, strategy: "in-place restart", error: "port 8080 in use" },
      { ...task, success: true, strategy: "blue-green deploy" },
    ]) {
      const res = await t.call("POST", `${path(agent)}/outcomes`, o);
      expect(res.status).toBe(201);
      outcomes.push((await res.json()) as Memory);
    }
    const [lesson] = await until("the lesson", async () => {
      const res = await t.call("GET", `${path(agent)}/lessons?taskType=deploy`);
      const lessons = ((await res.json()) as { lessons: Memory[] }).lessons;
      return lessons.length > 0 ? lessons : null;
    });
    await t.system.jobs.inProcess?.idle();
    const res = await t.call("DELETE", `${path(agent)}/memories/${outcomes[0]?.id}`);
    expect(await res.json()).toEqual({ id: outcomes[0]?.id, kind: "outcome", derived: { lesson: 1 } });
    expect(await exists(agent, lesson?.id as string)).toBe(false);
    const [rev] = await queryRows<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM lesson_revisions WHERE agent_id = ${agent}`,
    );
    expect(rev?.n).toBe(0);
  });
});

describe("erasure receipts", () => {
  it("erasing answers a receipt id; the receipt has counts, no content, and outlives the data", async () => {
    const agent = uniq("receipt");
    const s = await stream(agent);
    const first = await t.call("DELETE", path(agent));
    expect(first.status).toBe(200);
    const { deleted, erasureId } = (await first.json()) as { deleted: number; erasureId: string };
    expect(deleted).toBe(6);
    expect(erasureId).toMatch(/^era_/);
    const got = await t.call("GET", `${path(agent)}/erasures/${erasureId}`);
    expect(got.status).toBe(200);
    const receipt = (await got.json()) as Record<string, unknown>;
    expect(receipt).toMatchObject({
      id: erasureId,
      agentId: agent,
      epoch: 1,
      memoriesByKind: { observation: 3, reflection: 3 },
      rows: { memories: 6 },
    });
    expect(Object.keys(receipt.cancelled as object).sort()).toEqual(["enrichment", "reflectionRuns"]);
    // No content: no description, no id of what was erased.
    const text = JSON.stringify(receipt);
    for (const m of Object.values(s)) {
      expect(text).not.toContain(m.description);
      expect(text).not.toContain(m.id);
    }
    // A second epoch, erased again: both receipts remain, in order.
    await write(agent, { description: "a note of the second epoch" });
    const second = (await (await t.call("DELETE", path(agent))).json()) as { erasureId: string };
    const again = (await (await t.call("GET", `${path(agent)}/erasures/${erasureId}`)).json()) as {
      epoch: number;
    };
    const later = (await (await t.call("GET", `${path(agent)}/erasures/${second.erasureId}`)).json()) as {
      epoch: number;
      rows: { memories: number };
    };
    expect([again.epoch, later.epoch, later.rows.memories]).toEqual([1, 2, 1]);
  });

  it("another agent's receipt, or an unknown id, is a 404 in the one error shape", async () => {
    const agent = uniq("receipt-other");
    await write(agent, { description: "something" });
    const { erasureId } = (await (await t.call("DELETE", path(agent))).json()) as { erasureId: string };
    for (const p of [
      `${path(uniq("someone-else"))}/erasures/${erasureId}`,
      `${path(agent)}/erasures/era_unknown`,
    ]) {
      const res = await t.call("GET", p);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
  });
});
