import { createHmac } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemories } from "../../src/memory/create-memories";
import { inMemoryTransaction } from "../../src/memory/transaction";
import { TEST_REDIS_URL, uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";
import { until } from "../support/until";
import { type Received, startReceiver } from "./receiver";

// Outgoing events end to end: real Postgres (the outbox triggers), real Redis (BullMQ runs
// `events.deliver`), a real HTTP receiver on 127.0.0.1 as the subscriber.
const s = uniq("evt");
const admin = { authorization: `Bearer admin-${s}` };
const tenant = { authorization: `Bearer tenant-${s}` };
let t: TestSystem;
let rx: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  rx = await startReceiver();
  t = await startTestSystem({
    env: {
      REDIS_URL: TEST_REDIS_URL,
      MEMSTREAM_QUEUE_PREFIX: `q-${s}`,
      MEMSTREAM_API_KEYS: `admin-${s},tenant-${s}=tenant-${s}:`,
      // The receiver is on loopback; the default with DATABASE_URL set refuses it.
      MEMSTREAM_EVENTS_ALLOW_PRIVATE: "true",
      MEMSTREAM_EVENTS_ATTEMPTS: "4",
      MEMSTREAM_EVENTS_BACKOFF_MS: "300",
      MEMSTREAM_JOB_BACKOFF_MS: "20",
    },
  });
  t.system.jobs.startWorkers();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await rx?.close();
});

type Sub = { id: string; secret: string; url: string; events: string[]; status: string };
type Delivery = {
  id: string;
  eventId: string;
  event: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  redeliveryOf: string | null;
};
type Event = { id: string; type: string; agentId: string; createdAt: string; data: Record<string, unknown> };

async function subscribe(agent: string, path: string, body: Record<string, unknown> = {}): Promise<Sub> {
  const res = await t.call(
    "POST",
    `/v1/agents/${agent}/subscriptions`,
    { url: rx.url(path), ...body },
    admin,
  );
  expect(res.status).toBe(201);
  return (await res.json()) as Sub;
}

async function remember(agent: string, memories: Record<string, unknown>[]): Promise<{ id: string }[]> {
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, { memories }, admin);
  expect(res.status).toBe(201);
  return ((await res.json()) as { memories: { id: string }[] }).memories;
}

const parse = (r: Received) => JSON.parse(r.body) as Event;
const eventsOn = (path: string) => rx.on(path).map(parse);

/** Waits until `path` got an event matching `match`. */
const arrives = (path: string, what: string, match: (e: Event) => boolean) =>
  until(what, async () => rx.on(path).find((r) => match(parse(r))), 20_000);

async function deliveries(agent: string, sub: string): Promise<Delivery[]> {
  const res = await t.call(
    "GET",
    `/v1/agents/${agent}/subscriptions/${sub}/deliveries?limit=100`,
    undefined,
    admin,
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: Delivery[] }).deliveries;
}

describe("subscriptions", () => {
  it("answers the secret once, at creation; lists and reads without it", async () => {
    const agent = `${s}-crud`;
    const sub = await subscribe(agent, "/crud", { events: ["memory.written"], description: "audit" });
    expect(sub.secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(sub).toMatchObject({ status: "active", events: ["memory.written"] });
    const list = await t.call("GET", `/v1/agents/${agent}/subscriptions`, undefined, admin);
    const listed = ((await list.json()) as { subscriptions: Record<string, unknown>[] }).subscriptions;
    expect(listed.map((x) => x.id)).toEqual([sub.id]);
    expect(listed[0]).not.toHaveProperty("secret");
    const one = await t.call("GET", `/v1/agents/${agent}/subscriptions/${sub.id}`, undefined, admin);
    expect(await one.json()).not.toHaveProperty("secret");
    const del = await t.call("DELETE", `/v1/agents/${agent}/subscriptions/${sub.id}`, undefined, admin);
    expect(await del.json()).toEqual({ id: sub.id, deleted: true });
    const gone = await t.call("GET", `/v1/agents/${agent}/subscriptions/${sub.id}`, undefined, admin);
    expect(gone.status).toBe(404);
  });

  it("refuses a bad URL, an unknown event type and a short secret, naming the field", async () => {
    const agent = `${s}-bad`;
    for (const [body, field] of [
      [{ url: "ftp://example.com/x" }, "url"],
      [{ url: "https://user:pw@example.com/x" }, "url"],
      [{ url: "https://example.com/x", events: ["memory.eaten"] }, "events"],
      [{ url: "https://example.com/x", secret: "short" }, "secret"],
    ] as const) {
      const res = await t.call("POST", `/v1/agents/${agent}/subscriptions`, body, admin);
      expect(res.status).toBe(400);
      const err = (await res.json()) as { error: { details?: { field?: string } } };
      expect(err.error.details?.field ?? "").toContain(field);
    }
  });

  it("a scoped key sees and creates subscriptions only for agents its scope opens", async () => {
    const mine = `tenant-${s}:bot`;
    const other = `${s}-other`;
    const made = await t.call("POST", `/v1/agents/${mine}/subscriptions`, { url: rx.url("/tenant") }, tenant);
    expect(made.status).toBe(201);
    const theirs = await subscribe(other, "/other");
    const create = await t.call("POST", `/v1/agents/${other}/subscriptions`, { url: rx.url("/x") }, tenant);
    expect(create.status).toBe(404);
    for (const path of [
      `/v1/agents/${other}/subscriptions`,
      `/v1/agents/${other}/subscriptions/${theirs.id}`,
      `/v1/agents/${other}/subscriptions/${theirs.id}/deliveries`,
    ]) {
      expect((await t.call("GET", path, undefined, tenant)).status).toBe(404);
    }
    const del = await t.call("DELETE", `/v1/agents/${other}/subscriptions/${theirs.id}`, undefined, tenant);
    expect(del.status).toBe(404);
    // Its own agent cannot reach another agent's subscription by id either.
    const cross = await t.call("GET", `/v1/agents/${mine}/subscriptions/${theirs.id}`, undefined, tenant);
    expect(cross.status).toBe(404);
    expect((await t.call("GET", `/v1/agents/${other}/subscriptions`, undefined)).status).toBe(401);
  });
});

describe("deliveries", () => {
  it("signs each POST with the subscription's secret (GitHub's scheme) and names event and delivery", async () => {
    const agent = `${s}-sign`;
    const sub = await subscribe(agent, "/sign", { events: ["memory.written"] });
    const [m] = await remember(agent, [{ description: "The deploy key rotates monthly", importance: 4 }]);
    const got = await arrives("/sign", "memory.written", (e) => e.type === "memory.written");
    const expected = `sha256=${createHmac("sha256", sub.secret).update(got.body).digest("hex")}`;
    expect(got.headers["x-memstream-signature-256"]).toBe(expected);
    expect(got.headers["x-memstream-event"]).toBe("memory.written");
    expect(got.headers["x-memstream-delivery"]).toMatch(/^evd_/);
    const e = parse(got);
    expect(e).toMatchObject({
      type: "memory.written",
      agentId: agent,
      data: { memory: { id: m?.id, description: "The deploy key rotates monthly", importance: 4 } },
    });
    expect(got.headers["x-memstream-event-id"]).toBe(e.id);
    // A different secret does not verify it.
    const forged = `sha256=${createHmac("sha256", "another secret entirely").update(got.body).digest("hex")}`;
    expect(forged).not.toBe(got.headers["x-memstream-signature-256"]);
    const [d] = await until("delivered", async () =>
      (await deliveries(agent, sub.id)).filter((x) => x.status === "delivered").at(0)
        ? deliveries(agent, sub.id)
        : null,
    );
    expect(d).toMatchObject({
      event: "memory.written",
      status: "delivered",
      attempts: 1,
      lastStatusCode: 200,
    });
  });

  it("sends an event of every kind", async () => {
    const agent = `${s}-kinds`;
    await subscribe(agent, "/kinds");
    const settings = await t.call(
      "PUT",
      `/v1/agents/${agent}/settings`,
      { lessons: { minOutcomes: 2 } },
      admin,
    );
    expect(settings.status).toBe(200);
    // Written without importance or vector: enriched by the workers afterwards.
    const [old] = await remember(agent, [{ description: "The office is on the 3rd floor" }]);
    await arrives("/kinds", "memory.enriched", (e) => e.type === "memory.enriched");
    const [fresh] = await remember(agent, [
      { description: "The office moved to the 5th floor", importance: 3, supersedes: [old?.id] },
    ]);
    await remember(agent, [
      { description: "People value the new office", kind: "reflection", importance: 6 },
    ]);
    const fail = {
      task: "Deploy the api",
      taskType: "deploy",
      success: false,
      strategy: "restart",
      error: "busy",
    };
    for (let i = 0; i < 2; i++) {
      const res = await t.call("POST", `/v1/agents/${agent}/outcomes`, fail, admin);
      expect(res.status).toBe(201);
    }
    // One consolidation job per agent and task type: BullMQ drops an announcement while it runs
    // (the sweep would find it, minutes later), so it is announced again until the lesson is told.
    await until(
      "lesson.written",
      async () => {
        await t.system.services.announce([{ kind: "outcome.recorded", agentId: agent, taskType: "deploy" }]);
        return eventsOn("/kinds").find((e) => e.type === "lesson.written");
      },
      20_000,
      300,
    );
    expect(
      (await t.call("DELETE", `/v1/agents/${agent}/memories/${fresh?.id}`, undefined, admin)).status,
    ).toBe(200);
    const deleted = await arrives("/kinds", "memory.deleted", (e) => e.type === "memory.deleted");
    expect(parse(deleted).data).toMatchObject({ memoryIds: [fresh?.id], count: 1 });
    await arrives("/kinds", "memory.superseded", (e) => e.type === "memory.superseded");
    await arrives("/kinds", "reflection.written", (e) => e.type === "reflection.written");
    expect((await t.call("DELETE", `/v1/agents/${agent}`, undefined, admin)).status).toBe(200);
    const erased = await arrives("/kinds", "agent.erased", (e) => e.type === "agent.erased");
    expect(parse(erased).data).toHaveProperty("erasureId");
    expect(JSON.stringify(parse(erased).data)).not.toContain("office");
    const types = new Set(eventsOn("/kinds").map((e) => e.type));
    expect([...types].sort()).toEqual(
      [
        "agent.erased",
        "lesson.written",
        "memory.deleted",
        "memory.enriched",
        "memory.superseded",
        "memory.written",
        "reflection.written",
      ].sort(),
    );
    const superseded = eventsOn("/kinds").find((e) => e.type === "memory.superseded");
    expect(superseded?.data).toMatchObject({ memoryId: old?.id, supersededBy: fresh?.id });
  });

  it("moving memories between tiers is no deletion; deleting an archived one is", async () => {
    const agent = `${s}-tiers`;
    await subscribe(agent, "/tiers", { events: ["memory.written", "memory.deleted"] });
    const vec = (j: number) =>
      Array.from({ length: 64 }, (_, k) => (k === 0 ? 1 : 0) + (k === 10 + j ? 0.3 : 0));
    const old = await remember(
      agent,
      [0, 1, 2].map((j) => ({
        description: `garden note ${j}: planted tomato row ${j}`,
        createdAt: `2020-01-01T10:0${j}:00.000Z`,
        importance: 4,
        embedding: vec(j),
      })),
    );
    const res = await t.call(
      "POST",
      `/v1/agents/${agent}/maintenance`,
      { before: "2021-01-01T00:00:00.000Z" },
      admin,
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { compaction: { archived: number } }).compaction.archived).toBe(3);
    await arrives(
      "/tiers",
      "the summary",
      (e) => e.type === "memory.written" && JSON.stringify(e.data).includes('"summary"'),
    );
    // Deleting an archived memory is a deletion like any other.
    expect(
      (await t.call("DELETE", `/v1/agents/${agent}/memories/${old[1]?.id}`, undefined, admin)).status,
    ).toBe(200);
    const gone = await arrives("/tiers", "memory.deleted", (e) => e.type === "memory.deleted");
    expect(parse(gone).data).toMatchObject({ memoryIds: [old[1]?.id], count: 1 });
    await remember(agent, [{ description: "after the move", importance: 1 }]);
    await arrives("/tiers", "the last write", (e) => JSON.stringify(e.data).includes("after the move"));
    // The move to the archive told nothing: the only deletion is the one asked for.
    expect(eventsOn("/tiers").filter((e) => e.type === "memory.deleted")).toHaveLength(1);
  });

  it("a rolled-back write sends nothing and leaves no outbox row", async () => {
    const agent = `${s}-rollback`;
    await subscribe(agent, "/rollback", { events: ["memory.written"] });
    await expect(
      inMemoryTransaction(t.system.services, async (m) => {
        await createMemories(m, agent, [{ description: "never committed", importance: 1 }]);
        throw new Error("roll it back");
      }),
    ).rejects.toThrow("roll it back");
    await remember(agent, [{ description: "committed after", importance: 1 }]);
    await arrives("/rollback", "the committed write", (e) => e.type === "memory.written");
    const bodies = rx.on("/rollback").map((r) => r.body);
    expect(bodies.some((b) => b.includes("never committed"))).toBe(false);
    const sub = (await (
      await t.call("GET", `/v1/agents/${agent}/subscriptions`, undefined, admin)
    ).json()) as {
      subscriptions: { id: string }[];
    };
    expect(await deliveries(agent, sub.subscriptions[0]?.id ?? "")).toHaveLength(1);
  });

  it("retries a delivery the receiver failed (500, then 200) and logs its attempts", async () => {
    const agent = `${s}-retry`;
    rx.answer("/retry", 500);
    const sub = await subscribe(agent, "/retry", { events: ["memory.written"] });
    await remember(agent, [{ description: "retried until it lands", importance: 2 }]);
    const d = await until("delivered after a retry", async () =>
      (await deliveries(agent, sub.id)).find((x) => x.status === "delivered"),
    );
    expect(d).toMatchObject({ attempts: 2, lastStatusCode: 200 });
    const tries = rx.on("/retry");
    expect(tries).toHaveLength(2);
    // The same bytes each time: the same signature and delivery id.
    expect(tries[1]?.body).toBe(tries[0]?.body);
    expect(tries[1]?.headers["x-memstream-delivery"]).toBe(tries[0]?.headers["x-memstream-delivery"]);
    // Backoff: the retry came no sooner than the events' backoff base.
    expect((tries[1]?.at ?? 0) - (tries[0]?.at ?? 0)).toBeGreaterThanOrEqual(250);
  });

  it("keeps a subscription's log to MEMSTREAM_EVENTS_LOG_DAYS, pruned as deliveries finish", async () => {
    const agent = `${s}-prune`;
    const sub = await subscribe(agent, "/prune", { events: ["memory.written"] });
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    await t.system.services.db.execute(sql`
      INSERT INTO event_deliveries (agent_id, id, subscription_id, event_id, event, payload, content, status,
        attempts, created_at)
      VALUES (${agent}, 'evd_old', ${sub.id}, 'evt_old', 'memory.written', '{}', true, 'delivered', 1,
        ${old}::timestamptz)`);
    expect((await deliveries(agent, sub.id)).map((d) => d.id)).toContain("evd_old");
    await remember(agent, [{ description: "a fresh one", importance: 1 }]);
    // Pruned right after the fresh delivery is recorded as delivered.
    const ids = await until("the old row pruned", async () => {
      const now = (await deliveries(agent, sub.id)).map((d) => d.id);
      return now.includes("evd_old") ? null : now;
    });
    expect(ids).toHaveLength(1);
  });

  it("redelivers a logged delivery as a new delivery of the same event", async () => {
    const agent = `${s}-redeliver`;
    const sub = await subscribe(agent, "/redeliver", { events: ["memory.written"] });
    await remember(agent, [{ description: "send me twice", importance: 2 }]);
    const first = await until("delivered", async () =>
      (await deliveries(agent, sub.id)).find((x) => x.status === "delivered"),
    );
    const res = await t.call(
      "POST",
      `/v1/agents/${agent}/subscriptions/${sub.id}/deliveries/${first.id}/redeliver`,
      undefined,
      admin,
    );
    expect(res.status).toBe(202);
    const again = (await res.json()) as Delivery;
    expect(again).toMatchObject({ eventId: first.eventId, redeliveryOf: first.id, status: "pending" });
    expect(again.id).not.toBe(first.id);
    await until("the redelivery", async () => (rx.on("/redeliver").length >= 2 ? true : null));
    const [a, b] = rx.on("/redeliver").map(parse);
    expect(b?.id).toBe(a?.id);
    expect(rx.on("/redeliver")[1]?.headers["x-memstream-delivery"]).toBe(again.id);
    const unknown = await t.call(
      "POST",
      `/v1/agents/${agent}/subscriptions/${sub.id}/deliveries/evd_nosuchdelivery/redeliver`,
      undefined,
      admin,
    );
    expect(unknown.status).toBe(404);
  });

  it("an erasure cancels pending deliveries that carry content; only agent.erased is sent after it", async () => {
    const agent = `${s}-erase`;
    // Fails until the erasure: the memory's delivery is pending (retrying) when the erasure commits.
    rx.answer("/erase", 500, 500, 500, 500, 500, 500);
    const sub = await subscribe(agent, "/erase");
    await remember(agent, [{ description: "secret plans for the launch", importance: 5 }]);
    await until("a failed attempt", async () =>
      (await deliveries(agent, sub.id)).find((x) => x.event === "memory.written" && x.attempts >= 1),
    );
    expect((await t.call("DELETE", `/v1/agents/${agent}`, undefined, admin)).status).toBe(200);
    const erasedAt = Date.now();
    rx.answer("/erase");
    await arrives("/erase", "agent.erased", (e) => e.type === "agent.erased");
    const log = await deliveries(agent, sub.id);
    expect(log.find((x) => x.event === "memory.written")?.status).toBe("cancelled");
    // Give a retry of the cancelled delivery its chance to (wrongly) go out.
    await new Promise((r) => setTimeout(r, 1_000));
    const after = rx.on("/erase").filter((r) => r.at > erasedAt);
    expect(after.some((r) => r.body.includes("secret plans"))).toBe(false);
    expect(after.map((r) => parse(r).type)).toContain("agent.erased");
  });
});
