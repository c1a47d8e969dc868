import examples from "@octokit/webhooks-examples";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEvent } from "../../src/ingest/github/describe/index";
import { eventKeys } from "../../src/ingest/github/event-keys";
import { routeAgents } from "../../src/ingest/github/route-agents";
import { uniq } from "../support/env";
import { deliver, waitForDeliveries } from "../support/github";
import { startTestSystem, type TestSystem, without } from "../support/system";

// Every example payload GitHub documents, posted signed through the real app with default routing
// (`github:<owner>/<repo>`). This file owns those default agents (no other file routes to them).
const SECRET = "examples-secret";
const run = uniq("ex");
const deliveries = examples.flatMap((definition) =>
  definition.examples.map((payload, i) => ({
    id: `${run}-${definition.name}-${i}`,
    event: definition.name,
    payload: payload as unknown,
    // Marked with the run: replays are found by the body's hash across the database, and other
    // files post some of these example bodies too.
    body: JSON.stringify({ ...(payload as object), memstreamTestRun: run }),
  })),
);

// A few examples are byte-identical bodies under two names: the later one is a replay of the first
// (the same signed body under a new delivery id), answered `duplicate` and not stored again.
const firstWithBody = new Map<string, string>();
const replayOf = new Map<string, string>();
for (const d of deliveries) {
  const first = firstWithBody.get(d.body);
  if (first) replayOf.set(d.id, first);
  else firstWithBody.set(d.body, d.id);
}

// Some examples are the same event twice (the same issue opening with and without an
// installation...): their event keys collide, and the event is stored once (whichever is first).
const covered = deliveries.filter((d) => describeEvent(d.event, d.payload).status === "observations");
const deliveriesByKey = new Map<string, string[]>();
for (const d of covered)
  for (const k of eventKeys(d.event, d.payload))
    deliveriesByKey.set(k, [...(deliveriesByKey.get(k) ?? []), d.id]);
const sharesKey = new Set([...deliveriesByKey.values()].filter((ids) => ids.length > 1).flat());

type Memory = { description: string; createdAt: string; importance: number | null; metadata: object };

let t: TestSystem;
const receivedAt = new Map<string, string>();
beforeAll(async () => {
  // Only the deliveries' jobs run here; enrichment has its own tests.
  t = await startTestSystem({
    env: { GITHUB_WEBHOOK_SECRET: SECRET },
    announce: without("memories.pending"),
  });
  t.system.jobs.startWorkers();
  const agents = new Set(deliveries.flatMap((d) => routeAgents([], d.payload)));
  for (const agent of agents) {
    expect((await t.call("DELETE", `/v1/agents/${encodeURIComponent(agent)}`)).status).toBe(200);
  }
});
afterAll(() => t.close());

describe("every @octokit/webhooks-examples payload through POST /webhooks/github", () => {
  it("is accepted, then processed (covered) or ignored (uncovered), never failed", async () => {
    expect(deliveries.length).toBeGreaterThan(300);
    for (const d of deliveries) {
      const res = await deliver(t, { event: d.event, id: d.id, body: d.body, secret: SECRET });
      const replay = replayOf.has(d.id);
      expect(res.status, d.id).toBe(d.event === "ping" || replay ? 200 : 202);
      expect(await res.json()).toMatchObject({ deliveryId: d.id, status: replay ? "duplicate" : "accepted" });
    }
    const rows = await waitForDeliveries(
      t,
      deliveries.map((d) => d.id),
    );
    expect(rows.filter((r) => r.status === "failed").map((r) => `${r.id}: ${r.reason}`)).toEqual([]);

    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const r of rows) receivedAt.set(r.id, r.receivedAt.toISOString());
    for (const d of deliveries) {
      const row = byId.get(d.id);
      const described = describeEvent(d.event, d.payload);
      const agents = routeAgents([], d.payload);
      expect(row?.payload, d.id).toBeNull(); // dropped once final
      if (replayOf.has(d.id)) {
        expect(row, d.id).toMatchObject({ status: "ignored" });
        expect(row?.reason, d.id).toContain(replayOf.get(d.id));
      } else if (sharesKey.has(d.id) && row?.status === "ignored") {
        expect(row.reason, d.id).toContain("already");
      } else if (described.status === "observations" && agents.length > 0) {
        expect(row, d.id).toMatchObject({
          status: "processed",
          observations: described.observations.length,
          agentIds: agents,
        });
      } else {
        expect(row?.status, d.id).toBe("ignored");
        expect(row?.reason?.length, d.id).toBeGreaterThan(0);
      }
    }
    expect(rows.filter((r) => r.status === "processed").length).toBeGreaterThan(50);
    // One of each group of the same (non-push) event is stored; a push keeps its new commits.
    for (const [key, ids] of deliveriesByKey) {
      if (ids.length < 2 || key.includes("@")) continue;
      expect(
        ids.filter((id) => byId.get(id)?.status === "processed"),
        key,
      ).toHaveLength(1);
    }
  });

  it("stored each covered observation once per routed agent, at the payload's own time", async () => {
    for (const d of deliveries) {
      const described = describeEvent(d.event, d.payload);
      if (described.status !== "observations" || sharesKey.has(d.id) || replayOf.has(d.id)) continue;
      for (const agent of routeAgents([], d.payload)) {
        const filter = encodeURIComponent(JSON.stringify({ deliveryId: d.id }));
        const res = await t.call(
          "GET",
          `/v1/agents/${encodeURIComponent(agent)}/memories?metadata=${filter}`,
        );
        const { memories } = (await res.json()) as { memories: Memory[] };
        expect(memories.length, d.id).toBe(described.observations.length);
        for (const o of described.observations) {
          const m = memories.find((x) => x.description === o.description);
          expect(m, `${d.id}: ${o.description}`).toBeDefined();
          // The payload's time, or when GitHub delivered it when the payload has none.
          expect(m?.createdAt, d.id).toBe(o.createdAt ?? receivedAt.get(d.id));
          if (o.importance !== undefined) expect(m?.importance).toBe(o.importance);
          expect(m?.metadata).toMatchObject({ ...o.metadata, deliveryId: d.id });
        }
      }
    }
  });
});
