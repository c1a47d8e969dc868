import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { waitFor } from "../jobs/support";
import { uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { startTestSystem, type TestSystem } from "../support/system";

// Erase, retention and retrieve's touch lock an agent's memories in one order (id, COLLATE "C";
// the erase after the agent's lock; docs/adr/0027), so clients retrieving and erasing the same
// agent at once never deadlock. Before, the erase deleted rows in the order of its plan (a bitmap
// heap scan: the rows' physical order) while a touch locked them in id order; PostgreSQL aborted
// one of them ("deadlock detected") and the client got a 500. A database of its own, analyzed, so
// the erase's plan is the one a large stream gets: a scan in physical order, not by the key.
let own: Awaited<ReturnType<typeof ownDatabase>>;
let t: TestSystem;
beforeAll(async () => {
  own = await ownDatabase("erase-race");
  t = await startTestSystem({ env: { DATABASE_URL: own.url } });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await own?.drop();
});

const db = () => t.system.services.db;
const vector = (i: number) => Array.from({ length: 64 }, (_, d) => Math.sin(i + d));

async function seed(agent: string, n: number): Promise<void> {
  const memories = Array.from({ length: n }, (_, i) => ({
    description: `deploy note ${i}`,
    importance: 1 + (i % 10),
    embedding: vector(i),
  }));
  expect((await t.call("POST", `/v1/agents/${agent}/memories`, { memories })).status).toBe(201);
  await db().execute(sql`ANALYZE memories`);
}

/** Sessions of this database waiting on a row lock while running a statement that matches `like`. */
const waiting = async (like: string) => {
  const [row] = await queryRows<{ n: number }>(
    db(),
    sql`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE ${like}`,
  );
  return Number(row?.n ?? 0);
};

/**
 * A memory to hold so that the interleaving that deadlocked is forced: a touch locks every id
 * below it (id order) and waits; an erase walking the physical order locks rows above it first,
 * then meets a row the touch holds. Released, the touch goes on to rows the erase holds: a cycle.
 */
async function pivot(agent: string): Promise<string | undefined> {
  const ids = await queryRows<{ id: string }>(
    db(),
    sql`SELECT id FROM memories WHERE agent_id = ${agent} ORDER BY ctid`,
  );
  const physical = ids.map((r) => r.id);
  const byId = [...physical].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1));
  for (const x of byId.slice(1)) {
    let erasedAbove = false;
    for (const id of physical) {
      if (id === x) break;
      if (Buffer.from(id) < Buffer.from(x)) {
        if (erasedAbove) return x;
        break;
      }
      erasedAbove = true;
    }
  }
  // None when the smallest id came first physically (ids are random: about 1 stream in 20).
  return undefined;
}

it("an erase that meets a retrieve's touch half-way waits for it: both answer 200", async () => {
  // A stream whose physical order allows the interleaving (random ids: a few tries at most).
  let agent = "";
  let x: string | undefined;
  for (let attempt = 0; attempt < 8 && !x; attempt++) {
    agent = uniq("erase-race");
    await seed(agent, 24);
    x = await pivot(agent);
  }
  if (!x) throw new Error("no interleaving that could deadlock in 8 streams' physical orders");
  let release = () => {};
  const gate = new Promise<void>((r) => (release = r));
  let locked = () => {};
  const holding = new Promise<void>((r) => (locked = r));
  const holder = db().transaction(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM memories WHERE agent_id = ${agent} AND id = ${x} FOR UPDATE`);
    locked();
    await gate;
  });
  await holding;
  const retrieve = t.call("POST", `/v1/agents/${agent}/retrieve`, { query: "deploy note", k: 24 });
  await waitFor("the touch waiting", async () => (await waiting("%last_accessed_at%")) > 0);
  const erase = t.call("DELETE", `/v1/agents/${agent}`);
  // The retrieve's transaction shares the agent's lock (so its log never outlives an erase), so
  // the erase now waits at the agent's lock; an erase without it waits at the rows.
  await waitFor(
    "the erase waiting",
    async () => (await waiting("%DELETE FROM memories%")) + (await waiting("%pg_advisory_xact_lock(%")) > 0,
  );
  release();
  await holder;
  const [r, e] = await Promise.all([retrieve, erase]);
  expect({ retrieve: r.status, erase: e.status }).toEqual({ retrieve: 200, erase: 200 });
  expect(((await e.json()) as { deleted: number }).deleted).toBe(24);
});

it("many concurrent retrieves and erases of one agent all answer 200", async () => {
  const agent = uniq("erase-mixed");
  const statuses = new Map<number, number>();
  for (let round = 0; round < 5; round++) {
    await seed(agent, 100);
    const calls = [
      ...Array.from({ length: 6 }, () =>
        t.call("POST", `/v1/agents/${agent}/retrieve`, { query: "deploy", k: 100 }),
      ),
      // Staggered, so some erase lands while the retrieves' touches are under way.
      ...Array.from({ length: 3 }, (_, i) =>
        new Promise((r) => setTimeout(r, (round * 7 + i * 13) % 30)).then(() =>
          t.call("DELETE", `/v1/agents/${agent}`),
        ),
      ),
    ];
    for (const res of await Promise.all(calls)) statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
  expect(Object.fromEntries(statuses)).toEqual({ 200: 5 * 9 });
});
