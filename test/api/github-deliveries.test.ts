import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubDeliveries, memories } from "../../src/db/schema";
import { processDelivery } from "../../src/ingest/github/process-delivery";
import { receiveDelivery } from "../../src/ingest/github/receive-delivery";
import type { JobRequest } from "../../src/jobs/catalog";
import { sweepOnce } from "../../src/jobs/sweep";
import type { MemoryWork } from "../../src/memory/events";
import { child, example } from "../ingest/github/fixtures";
import { waitFor } from "../jobs/support";
import { uniq } from "../support/env";
import { deliver, deliveryRow, waitForDeliveries, waitForStatus } from "../support/github";
import { fixedClock, startTestSystem, type TestSystem } from "../support/system";

// Delivery bookkeeping: the listing (auth, tenant scoping, status filter), failures and their
// retry, and the recovery sweep.
const s = uniq("ghd");
const SECRET = `secret-${s}`;
const tenantRepo = `acme/tenant-${s}`;
const tenantAgent = `tenant-${s}:bot`;
const admin = { authorization: `Bearer admin-${s}` };
const tenant = { authorization: `Bearer tenant-${s}` };

let t: TestSystem;
/** Each enrichment announcement, with how many of its memories were visible (committed) at that moment. */
const announced: { items: MemoryWork[]; visible: number }[] = [];
beforeAll(async () => {
  t = await startTestSystem({
    // Enrichment is only watched (not enqueued); every other event reaches the real queue.
    announce: (jobs) => async (events) => {
      for (const e of events) {
        if (e.kind !== "memories.pending") continue;
        const ids = e.items.map((i) => i.memoryId);
        const rows = await t.system.services.db.select().from(memories).where(inArray(memories.id, ids));
        announced.push({ items: e.items, visible: rows.length });
      }
      await jobs(events.filter((e) => e.kind !== "memories.pending"));
    },
    env: {
      GITHUB_WEBHOOK_SECRET: SECRET,
      GITHUB_ROUTES: `repo:${tenantRepo}=${tenantAgent}`,
      MEMSTREAM_API_KEYS: `admin-${s},tenant-${s}=tenant-${s}:`,
      MEMSTREAM_JOB_BACKOFF_MS: "20",
      MEMSTREAM_JOB_ATTEMPTS: "3",
    },
  });
  // Deliveries are `github.deliver` jobs on the in-process queue.
  t.system.jobs.startWorkers();
});
afterAll(() => t.close());

let n = 0;
const newId = () => `${s}-${++n}`;

let issueNumber = 1000;
/** An `issues.opened` payload in `repo`, each a new issue: an event is stored once per stream (event keys). */
function issueIn(repo: string) {
  const payload = example("issues", "opened");
  child(payload, "repository").full_name = repo;
  issueNumber += 1;
  Object.assign(child(payload, "issue"), { number: issueNumber, id: issueNumber });
  return payload;
}

type Listed = { id: string; status: string; agentIds: string[]; payload?: unknown; reason: string | null };
async function list(query: string, headers: Record<string, string>) {
  const res = await t.call("GET", `/v1/webhooks/github/deliveries${query}`, undefined, headers);
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: Listed[] }).deliveries;
}

describe("GET /v1/webhooks/github/deliveries", () => {
  it("lists recent deliveries with their status, never the payload", async () => {
    const [covered, pinged] = [newId(), newId()];
    await deliver(t, {
      event: "issues",
      id: covered,
      body: JSON.stringify(issueIn(`acme/l-${s}`)),
      secret: SECRET,
    });
    await deliver(t, { event: "ping", id: pinged, body: JSON.stringify(example("ping")), secret: SECRET });
    await waitForDeliveries(t, [covered, pinged]);

    const all = await list("?limit=500", admin);
    expect(all.find((d) => d.id === covered)).toMatchObject({
      event: "issues",
      action: "opened",
      status: "processed",
      agentIds: [`github:acme/l-${s}`],
      observations: 1,
      attempts: 0,
    });
    expect(all.find((d) => d.id === pinged)).toMatchObject({ status: "ignored", reason: expect.any(String) });
    expect(all.every((d) => !("payload" in d))).toBe(true);

    const ignored = await list("?status=ignored&limit=500", admin);
    expect(ignored.every((d) => d.status === "ignored")).toBe(true);
    expect(ignored.map((d) => d.id)).toContain(pinged);
  });

  it("shows a tenant-scoped key only the deliveries routed to its agents", async () => {
    const [mine, theirs] = [newId(), newId()];
    await deliver(t, {
      event: "issues",
      id: mine,
      body: JSON.stringify(issueIn(tenantRepo)),
      secret: SECRET,
    });
    await deliver(t, {
      event: "issues",
      id: theirs,
      body: JSON.stringify(issueIn(`acme/o-${s}`)),
      secret: SECRET,
    });
    await waitForDeliveries(t, [mine, theirs]);
    const seen = await list("?limit=500", tenant);
    expect(seen.map((d) => d.id)).toEqual([mine]);
    expect(seen[0]?.agentIds).toEqual([tenantAgent]);
  });

  it("needs an API key, and rejects an unknown status", async () => {
    const res = await t.call("GET", "/v1/webhooks/github/deliveries");
    expect(res.status).toBe(401);
    const bad = await t.call("GET", "/v1/webhooks/github/deliveries?status=lost", undefined, admin);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { details: { field: string } } }).error.details.field).toBe(
      "query.status",
    );
  });
});

describe("a signed body replayed under a new delivery id", () => {
  it("is recorded as an ignored replay of the first, with no second copy of the payload", async () => {
    const [first, replay] = [newId(), newId()];
    const body = JSON.stringify(issueIn(tenantRepo));
    expect((await deliver(t, { event: "issues", id: first, body, secret: SECRET })).status).toBe(202);
    const res = await deliver(t, { event: "issues", id: replay, body, secret: SECRET });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deliveryId: replay, status: "duplicate" });
    expect(await deliveryRow(t, replay)).toMatchObject({
      status: "ignored",
      reason: `the same body as delivery ${first}, replayed under a new delivery id: not stored again`,
      payload: null,
      payloadHash: null,
    });
    const [processed] = await waitForDeliveries(t, [first]);
    expect(processed).toMatchObject({ status: "processed", observations: 1 });
    // Replayed again once the first is final (its payload dropped): still found by the hash.
    const again = newId();
    expect((await deliver(t, { event: "issues", id: again, body, secret: SECRET })).status).toBe(200);
    expect((await deliveryRow(t, again))?.reason).toContain(first);
    const stored = await t.system.services.db
      .select({ id: memories.id })
      .from(memories)
      .where(
        sql`${memories.agentId} = ${tenantAgent} AND ${memories.metadata}->>'deliveryId' IN (${first}, ${replay}, ${again})`,
      );
    expect(stored).toHaveLength(1);
  });
});

describe("processing failures, retries and the sweep", () => {
  it("records a failure with its reason, and a redelivery of the same id retries it", async () => {
    const id = newId();
    const repo = `acme/fail-${s}`;
    await receiveDelivery(t.system.services, { id, event: "issues", payload: issueIn(repo) });
    let broken = true;
    const clock = {
      now: () => {
        if (broken) {
          broken = false;
          throw new Error("clock unplugged");
        }
        return new Date();
      },
    };
    const deps = { ...t.system.services, clock };
    await expect(processDelivery(deps, id)).rejects.toThrow("clock unplugged");
    expect(await deliveryRow(t, id)).toMatchObject({
      status: "failed",
      reason: "clock unplugged",
      attempts: 1,
    });
    expect(await deliveryRow(t, id).then((r) => r?.payload)).not.toBeNull(); // kept for the retry

    // GitHub's "Redeliver" sends the same id: answered as a duplicate, but the failed work is retried.
    const res = await deliver(t, {
      event: "issues",
      id,
      body: JSON.stringify(issueIn(repo)),
      secret: SECRET,
    });
    expect(await res.json()).toEqual({ deliveryId: id, status: "duplicate" });
    expect(await waitForStatus(t, id, "processed")).toMatchObject({
      status: "processed",
      reason: null,
      payload: null,
    });
    const memories = await t.call(
      "GET",
      `/v1/agents/${encodeURIComponent(`github:${repo}`)}/memories`,
      undefined,
      admin,
    );
    expect(((await memories.json()) as { memories: unknown[] }).memories.length).toBe(1);
    await expect(processDelivery(t.system.services, id)).resolves.toEqual({ status: "skipped" });
  });

  it("announces enrichment work only after the memories are committed", async () => {
    const id = newId();
    const repo = `acme/enrich-${s}`;
    await deliver(t, { event: "issues", id, body: JSON.stringify(issueIn(repo)), secret: SECRET });
    await waitForDeliveries(t, [id]);
    // The announcement follows the commit, so it may land just after the status does.
    const mine = () => announced.filter((a) => a.items.some((i) => i.agentId === `github:${repo}`));
    const deadline = Date.now() + 10_000;
    while (mine().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(mine()).toHaveLength(1);
    expect(mine()[0]?.visible).toBe(mine()[0]?.items.length);
  });

  it("sweeps deliveries stuck in received and failed ones below the attempt limit; leaves the rest", async () => {
    const [stuck, failing, exhausted, fresh] = [newId(), newId(), newId(), newId()];
    const repo = `acme/sweep-${s}`;
    const past = { ...t.system.services, clock: fixedClock("2020-01-01T00:00:00Z") };
    for (const id of [stuck, failing, exhausted]) {
      await receiveDelivery(past, { id, event: "issues", payload: issueIn(repo) });
    }
    await receiveDelivery(t.system.services, { id: fresh, event: "issues", payload: issueIn(repo) });
    const failedAt = new Date("2020-01-01T00:01:00Z");
    await t.system.services.db
      .update(githubDeliveries)
      .set({ status: "failed", attempts: 2, processedAt: failedAt })
      .where(eq(githubDeliveries.id, failing));
    await t.system.services.db
      .update(githubDeliveries)
      .set({ status: "failed", attempts: 3, processedAt: failedAt })
      .where(eq(githubDeliveries.id, exhausted));

    const enqueued: JobRequest[] = [];
    await sweepOnce({
      db: t.system.services.db,
      clock: t.system.services.clock,
      sink: { enqueue: async (jobs) => void enqueued.push(...jobs) },
      afterMs: 60 * 60_000,
      limit: 5_000,
      embedChunk: 100,
      deliveryAttempts: 3,
    });
    const swept = enqueued.flatMap((j) => (j.name === "github.deliver" ? [j.payload.deliveryId] : []));
    expect(swept).toEqual(expect.arrayContaining([stuck, failing]));
    expect(swept).not.toContain(exhausted);
    expect(swept).not.toContain(fresh);

    // Through the real queue the swept deliveries finish.
    await sweepOnce({
      db: t.system.services.db,
      clock: t.system.services.clock,
      sink: t.system.jobs.sink,
      afterMs: 60 * 60_000,
      limit: 5_000,
      embedChunk: 100,
      deliveryAttempts: 3,
    });
    expect(await waitForStatus(t, stuck, "processed")).toMatchObject({ observations: 1 });
    expect(await waitForStatus(t, failing, "processed")).toMatchObject({ attempts: 2 });
  });

  it("a delivery whose processing keeps failing ends failed after the job's attempts", async () => {
    const id = newId();
    const repo = `acme/broken-${s}`;
    // A database that refuses this agent's memories (a trigger, only for this test's agent):
    // every attempt fails inside Postgres, and the failure is recorded on the delivery.
    const fn = sql.identifier(`refuse_${s.replaceAll("-", "_")}`);
    await t.system.services.db.execute(
      sql`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$`,
    );
    await t.system.services.db.execute(
      sql`CREATE TRIGGER ${fn} BEFORE INSERT ON memories FOR EACH ROW
          WHEN (NEW.agent_id = ${sql.raw(`'github:${repo}'`)}) EXECUTE FUNCTION ${fn}()`,
    );
    try {
      await deliver(t, { event: "issues", id, body: JSON.stringify(issueIn(repo)), secret: SECRET });
      const row = await waitFor("3 failed attempts", async () => {
        const r = await deliveryRow(t, id);
        return r?.attempts === 3 ? r : null;
      });
      expect(row).toMatchObject({ status: "failed", attempts: 3 });
      expect(row.reason).toMatch(/refused by test/);
      await t.system.jobs.inProcess?.idle();
      expect((await deliveryRow(t, id))?.attempts).toBe(3); // the job gave up: 3 attempts
      const listed = (await list("?status=failed&limit=500", admin)).find((d) => d.id === id);
      expect(listed).toMatchObject({ status: "failed", reason: row.reason });
    } finally {
      await t.system.services.db.execute(sql`DROP TRIGGER ${fn} ON memories`);
      await t.system.services.db.execute(sql`DROP FUNCTION ${fn}()`);
    }
  });

  it("rejects processing an unknown delivery with NotFound", async () => {
    await expect(processDelivery(t.system.services, `missing-${s}`)).rejects.toThrow(/not found/);
  });
});

describe("POST /v1/webhooks/github/deliveries/{id}/retry", () => {
  const retry = (id: string, headers: Record<string, string>) =>
    t.call("POST", `/v1/webhooks/github/deliveries/${encodeURIComponent(id)}/retry`, undefined, headers);

  it("retries a failed delivery by hand, even past the sweep's attempt limit", async () => {
    const id = newId();
    const repo = `acme/manual-${s}`;
    await receiveDelivery(t.system.services, { id, event: "issues", payload: issueIn(repo) });
    await t.system.services.db
      .update(githubDeliveries)
      .set({ status: "failed", attempts: 3, reason: "earlier failure" })
      .where(eq(githubDeliveries.id, id));
    const res = await retry(id, admin);
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ deliveryId: id, status: "queued" });
    expect(await waitForStatus(t, id, "processed")).toMatchObject({ observations: 1, attempts: 3 });
    // Final now: nothing left to retry.
    const again = await retry(id, admin);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("conflict");
  });

  it("is scoped like the listing, needs a key, and 404s an unknown id", async () => {
    const [mine, theirs, unrouted] = [newId(), newId(), newId()];
    await deliver(t, {
      event: "issues",
      id: mine,
      body: JSON.stringify(issueIn(tenantRepo)),
      secret: SECRET,
    });
    await deliver(t, {
      event: "issues",
      id: theirs,
      body: JSON.stringify(issueIn(`acme/other-${s}`)),
      secret: SECRET,
    });
    await waitForDeliveries(t, [mine, theirs]);
    await receiveDelivery(t.system.services, { id: unrouted, event: "issues", payload: issueIn(tenantRepo) });
    await t.system.services.db
      .update(githubDeliveries)
      .set({ status: "failed", attempts: 1 })
      .where(eq(githubDeliveries.id, unrouted));

    expect((await retry(mine, tenant)).status).toBe(409); // visible to the tenant, but final
    expect((await retry(theirs, tenant)).status).toBe(404);
    expect((await retry(unrouted, tenant)).status).toBe(404); // not routed yet: unscoped keys only
    expect((await retry(`missing-${s}`, admin)).status).toBe(404);
    expect((await retry(mine, {})).status).toBe(401);
  });
});
