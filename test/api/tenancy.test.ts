import { afterAll, beforeAll, expect, it } from "vitest";
import { SETUP_MS, uniq } from "../support/env";
import { deliver, waitForDeliveries } from "../support/github";
import {
  EVENT_IDS,
  fillPath,
  loadDoc,
  type OpenApiDoc,
  type Operation,
  operations,
  requestExample,
} from "../support/openapi";
import { startTestSystem, type TestSystem } from "../support/system";

/**
 * Tenancy over every /v1 operation of /openapi.json, derived from its shape: a key scoped to
 * one agent prefix gets 404 for another tenant's agent (and for another tenant's memory id under
 * its own agent), and lists outside any agent show nothing of the other tenant. An operation of
 * a shape with no rule here fails the test, so a route added later cannot slip through.
 */
const s = uniq("ten");
const MINE = `mine-${s}:`;
const mineAgent = `${MINE}agent`;
const otherAgent = `other-${s}:agent`;
const repo = `acme/tenancy-${s}`;
const SECRET = `secret-${s}`;
const admin = { authorization: `Bearer admin-${s}` };
const scoped = { authorization: `Bearer scoped-${s}` };

let t: TestSystem;
let doc: OpenApiDoc;
let otherMemory: string;
const otherDelivery = `d-${s}`;
beforeAll(async () => {
  t = await startTestSystem({
    env: {
      MEMSTREAM_API_KEYS: `admin-${s},scoped-${s}=${MINE}`,
      GITHUB_WEBHOOK_SECRET: SECRET,
      GITHUB_ROUTES: `repo:${repo}=${otherAgent}`,
      LLM_MODEL: "stub-chat",
    },
  });
  // Deliveries are `github.deliver` jobs on the in-process queue.
  t.system.jobs.startWorkers();
  doc = await loadDoc(t.app);
  const res = await t.call(
    "POST",
    `/v1/agents/${enc(otherAgent)}/memories`,
    { description: "secret plan" },
    admin,
  );
  expect(res.status).toBe(201);
  otherMemory = ((await res.json()) as { id: string }).id;
  expect(
    (await t.call("POST", `/v1/agents/${enc(mineAgent)}/memories`, { description: "mine" }, admin)).status,
  ).toBe(201);
  // A GitHub delivery routed to the other tenant's agent, for the deliveries list.
  const id = otherDelivery;
  const body = JSON.stringify({
    ref: "refs/heads/main",
    before: "0".repeat(40),
    after: "1".repeat(40),
    repository: {
      full_name: repo,
      name: repo.split("/")[1],
      owner: { login: "acme" },
      default_branch: "main",
    },
    sender: { login: "alice", type: "User" },
    pusher: { name: "alice" },
    commits: [
      {
        id: "1".repeat(40),
        message: "ship it",
        timestamp: "2026-01-01T00:00:00Z",
        author: { name: "alice" },
      },
    ],
    head_commit: { id: "1".repeat(40), message: "ship it", timestamp: "2026-01-01T00:00:00Z" },
  });
  expect((await deliver(t, { event: "push", id, body, secret: SECRET })).status).toBe(202);
  await waitForDeliveries(t, [id]);
}, SETUP_MS);
afterAll(() => t.close());

const enc = encodeURIComponent;

type Rule = { kind: "agent-404" } | { kind: "filtered-list" } | { kind: "delivery-404" };

/** The tenancy rule of an operation, derived from its shape; null = no rule (the test fails). */
function ruleFor(o: Operation): Rule | null {
  if (o.path.startsWith("/v1/agents/{agentId}")) return { kind: "agent-404" };
  if (o.method === "GET" && !o.path.includes("{")) return { kind: "filtered-list" };
  if (o.path.startsWith("/v1/webhooks/github/deliveries/{id}")) return { kind: "delivery-404" };
  return null;
}

async function otherStats() {
  const res = await t.call("GET", `/v1/agents/${enc(otherAgent)}/stats`, undefined, admin);
  expect(res.status).toBe(200);
  // Counts only: enrichment states move on their own meanwhile.
  const { total, byKind } = (await res.json()) as { total: number; byKind: Record<string, number> };
  return { total, byKind };
}

async function call(o: Operation, path: string, headers: Record<string, string>) {
  const example = requestExample(doc, o.op);
  return t.call(o.method, path, example, headers);
}

it("a scoped key reaches no other tenant's data through any /v1 operation", async () => {
  const ops = operations(doc).filter((o) => o.path.startsWith("/v1/"));
  expect(ops.length).toBeGreaterThan(10);
  const before = await otherStats();
  expect(before.total).toBeGreaterThan(0);
  const seen = { agent: 0, list: 0, delivery: 0 };
  for (const o of ops) {
    const rule = ruleFor(o);
    expect(rule, `${o.name} has no tenancy rule: add one to ruleFor`).not.toBeNull();
    if (rule?.kind === "agent-404") {
      seen.agent++;
      const foreign = await call(
        o,
        fillPath(o.path, { agentId: otherAgent, id: otherMemory, ...EVENT_IDS }),
        scoped,
      );
      expect(foreign.status, `${o.name} on another tenant's agent`).toBe(404);
      expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe("not_found");
      if (o.path.includes("{id}")) {
        // Its own agent, another tenant's memory id: still nothing to see.
        const crossId = await call(
          o,
          fillPath(o.path, { agentId: mineAgent, id: otherMemory, ...EVENT_IDS }),
          scoped,
        );
        expect(crossId.status, `${o.name} with another tenant's memory id`).toBe(404);
      }
    } else if (rule?.kind === "delivery-404") {
      // Another tenant's delivery does not exist for the scoped key; the unscoped key sees it.
      seen.delivery++;
      const path = fillPath(o.path, { id: otherDelivery });
      expect((await call(o, path, scoped)).status, `${o.name} on another tenant's delivery`).toBe(404);
      expect((await call(o, path, admin)).status, o.name).not.toBe(404);
    } else if (rule?.kind === "filtered-list") {
      seen.list++;
      const full = await call(o, o.path, admin);
      expect(full.status, o.name).toBe(200);
      expect(
        JSON.stringify(await full.json()),
        `${o.name}: the unscoped key sees the other tenant`,
      ).toContain(otherAgent);
      const filtered = await call(o, o.path, scoped);
      expect(filtered.status, o.name).toBe(200);
      expect(JSON.stringify(await filtered.json()), `${o.name} leaks the other tenant`).not.toContain(
        otherAgent,
      );
    }
  }
  expect(seen.agent).toBeGreaterThan(10);
  expect(seen.list).toBeGreaterThan(0); // the deliveries list
  // Nothing the scoped key sent (deletes and erases included) touched the other tenant.
  expect(await otherStats()).toEqual(before);
  const got = await t.call("GET", `/v1/agents/${enc(otherAgent)}/memories/${otherMemory}`, undefined, admin);
  expect(got.status).toBe(200);
});

it("deleting by ids or filter, and importing ids, under its own agent never reach another tenant's memories", async () => {
  const before = await otherStats();
  const path = `/v1/agents/${enc(mineAgent)}/memories/delete`;
  const byIds = await t.call("POST", path, { ids: [otherMemory] }, scoped);
  expect(byIds.status).toBe(200);
  expect(await byIds.json()).toMatchObject({ count: 0, notFound: [otherMemory] });
  const byFilter = await t.call("POST", path, { filter: { metadata: {} }, dryRun: true }, scoped);
  expect(((await byFilter.json()) as { count: number }).count).toBe(1); // its own one memory
  // An imported memory keeps its id, but under the agent imported into: the other tenant's memory
  // of the same id is another row, untouched.
  const file = [
    {
      type: "header",
      format: "memstream.stream",
      version: 1,
      agentId: otherAgent,
      exportedAt: "2026-01-01T00:00:00Z",
      embeddingModels: [],
      memories: 1,
      settings: null,
    },
    {
      type: "memory",
      id: otherMemory,
      kind: "observation",
      description: "not the secret plan",
      createdAt: "2026-01-01T00:00:00Z",
      lastAccessedAt: "2026-01-01T00:00:00Z",
      insertedAt: "2026-01-01T00:00:00Z",
      importance: 1,
      importanceSource: "caller",
      embeddingModel: null,
      vectors: {},
      metadata: {},
      citations: [],
      supersededBy: null,
      validUntil: null,
      promptVersion: null,
    },
    { type: "end", memories: 1, documents: 0, reflectionRuns: 0 },
  ];
  const imported = await t.app.request(`/v1/agents/${enc(mineAgent)}/import`, {
    method: "POST",
    headers: { ...scoped, "content-type": "application/x-ndjson" },
    body: file.map((l) => JSON.stringify(l)).join("\n"),
  });
  expect(imported.status).toBe(200);
  expect(await imported.json()).toMatchObject({ memories: { added: 1, existing: 0 } });
  expect(await otherStats()).toEqual(before);
  const got = await t.call("GET", `/v1/agents/${enc(otherAgent)}/memories/${otherMemory}`, undefined, admin);
  expect(((await got.json()) as { description: string }).description).toBe("secret plan");
});
