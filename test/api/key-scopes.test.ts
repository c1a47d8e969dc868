import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseApiKeys } from "../../src/config";
import { listAgents } from "../../src/memory/list-agents";
import { uniq } from "../support/env";
import { deliver, waitForDeliveries } from "../support/github";
import { startTestSystem, type TestSystem } from "../support/system";

// Key scopes (src/lib/agent-scope.ts): a bare prefix keeps its old meaning (and its trap: `tenant-a`
// opens `tenant-ab-x`); `prefix:tenant-a/` is bounded by its delimiter; `exact:tenant-a` opens one
// agent. A delivery routed to several tenants shows a scoped key only its own agents.
const s = uniq("scope");
const A = `tenant-a-${s}`;
const AB = `tenant-ab-${s}`;
const SECRET = `secret-${s}`;
const repo = `acme/shared-${s}`;
const keys = {
  admin: `admin-${s}`,
  bare: `bare-${s}`,
  bounded: `bounded-${s}`,
  exact: `exact-${s}`,
  other: `other-${s}`,
};
const agents = { a: A, aChild: `${A}/x`, ab: `${AB}-x` };
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({
    env: {
      MEMSTREAM_API_KEYS: [
        keys.admin,
        // The trap: a bare prefix, as before the forms existed.
        `${keys.bare}=tenant-a`,
        `${keys.bounded}=prefix:${A}/`,
        `${keys.exact}=exact:${A}`,
        `${keys.other}=prefix:${AB}-`,
      ].join(","),
      GITHUB_WEBHOOK_SECRET: SECRET,
      GITHUB_ROUTES: `repo:${repo}=${agents.aChild},${agents.ab}`,
    },
  });
  t.system.jobs.startWorkers();
  for (const agent of Object.values(agents)) {
    const res = await t.call(
      "POST",
      path(agent, "/memories"),
      { description: `note of ${agent}` },
      bearer("admin"),
    );
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.close());

const bearer = (k: keyof typeof keys) => ({ authorization: `Bearer ${keys[k]}` });
const path = (agent: string, rest = "") => `/v1/agents/${encodeURIComponent(agent)}${rest}`;
const status = async (k: keyof typeof keys, agent: string) =>
  (await t.call("GET", path(agent, "/memories"), undefined, bearer(k))).status;

describe("key scopes", () => {
  it("parses exact:, prefix: and a bare prefix", () => {
    expect(parseApiKeys(["k1", "k2=exact:a", "k3=prefix:a/", "k4=a"])).toEqual([
      { token: "k1", scope: null },
      { token: "k2", scope: { kind: "exact", value: "a" } },
      { token: "k3", scope: { kind: "prefix", value: "a/" } },
      { token: "k4", scope: { kind: "prefix", value: "a" } },
    ]);
  });

  it("a bare prefix opens every id starting with it (backward compatible, `tenant-ab-…` too)", async () => {
    expect([
      await status("bare", agents.a),
      await status("bare", agents.aChild),
      await status("bare", agents.ab),
    ]).toEqual([200, 200, 200]);
  });

  it("prefix:tenant-a/ opens the tenant's agents and not tenant-ab-x", async () => {
    expect([
      await status("bounded", agents.aChild),
      await status("bounded", agents.ab),
      await status("bounded", agents.a),
    ]).toEqual([200, 404, 404]);
  });

  it("exact:tenant-a opens that agent only", async () => {
    expect([
      await status("exact", agents.a),
      await status("exact", agents.aChild),
      await status("exact", agents.ab),
    ]).toEqual([200, 404, 404]);
    const listed = await listAgents(t.system.services, { scope: { kind: "exact", value: A }, limit: 10 });
    expect(listed.agents).toEqual([A]);
  });
});

describe("deliveries of a repository routed to two tenants", () => {
  it("each scoped key sees the delivery with its own agents only; an unscoped key sees all", async () => {
    const id = `d-${s}`;
    const body = JSON.stringify({
      action: "opened",
      issue: {
        number: 1,
        title: "Shared bug",
        user: { login: "octo" },
        html_url: "https://example.com/1",
        body: "",
      },
      repository: { full_name: repo, owner: { login: "acme" } },
      sender: { login: "octo", type: "User" },
    });
    expect((await deliver(t, { event: "issues", id, body, secret: SECRET })).status).toBe(202);
    const [row] = await waitForDeliveries(t, [id]);
    expect(row?.status).toBe("processed");
    const seen = async (k: keyof typeof keys) => {
      const res = await t.call("GET", "/v1/webhooks/github/deliveries?limit=50", undefined, bearer(k));
      expect(res.status).toBe(200);
      const list = ((await res.json()) as { deliveries: { id: string; agentIds: string[] }[] }).deliveries;
      return list.find((d) => d.id === id)?.agentIds;
    };
    expect(await seen("admin")).toEqual([agents.aChild, agents.ab]);
    expect(await seen("bounded")).toEqual([agents.aChild]);
    expect(await seen("other")).toEqual([agents.ab]);
    expect(await seen("exact")).toBeUndefined();
  });
});
