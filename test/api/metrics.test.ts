import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// /metrics: the Prometheus text of this process, behind an admin key, moving with traffic.
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({ env: { MEMSTREAM_API_KEYS: "agent-key", MEMSTREAM_ADMIN_KEYS: "ops-key" } });
});
afterAll(() => t.close());

const admin = { authorization: "Bearer ops-key" };
const agentKey = { authorization: "Bearer agent-key" };

async function scrape(): Promise<string> {
  const res = await t.app.request("/metrics", { headers: admin });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return res.text();
}

/** The value of one sample (`name{labels} value`), 0 when the series does not exist yet. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const inner = line.slice(name.length + 1, line.indexOf("}"));
    const have = inner.split(",");
    if (want.every((w) => have.includes(w))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

describe("GET /metrics", () => {
  it("needs an admin key: agent keys and no key get 401 with a Basic challenge; Basic auth with the key works", async () => {
    for (const headers of [{}, agentKey, { authorization: "Bearer wrong" }]) {
      const res = await t.app.request("/metrics", { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Basic");
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
    const basic = `Basic ${Buffer.from("prometheus:ops-key").toString("base64")}`;
    expect((await t.app.request("/metrics", { headers: { authorization: basic } })).status).toBe(200);
  });

  it("request durations by route pattern and status, and retrieve durations by mode, move with traffic", async () => {
    const route = "/v1/agents/:agentId/memories";
    const before = await scrape();
    const agent = `/v1/agents/${uniq("metrics")}`;
    const json = { ...agentKey, "content-type": "application/json" };
    for (const description of ["The deploy failed", "Lunch with the team"]) {
      const res = await t.app.request(`${agent}/memories`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ description }),
      });
      expect(res.status).toBe(201);
    }
    const bad = await t.app.request(`${agent}/memories`, { method: "POST", headers: json, body: "{}" });
    expect(bad.status).toBe(400);
    const retrieved = await t.app.request(`${agent}/retrieve`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ query: "deploy", mode: "exact" }),
    });
    expect(retrieved.status).toBe(200);

    const after = await scrape();
    const count = "memstream_http_request_duration_seconds_count";
    const created = { method: "POST", route, status: "201" };
    expect(sample(after, count, created) - sample(before, count, created)).toBe(2);
    const rejected = { method: "POST", route, status: "400" };
    expect(sample(after, count, rejected) - sample(before, count, rejected)).toBe(1);
    const exact = { mode: "exact", relevance: "vector" };
    const retrieves = "memstream_retrieve_duration_seconds_count";
    expect(sample(after, retrieves, exact) - sample(before, retrieves, exact)).toBe(1);
    // Raw paths (with agent ids) never become labels.
    expect(after).not.toContain(agent);
  });
});

describe("GET /metrics without any keys (loopback dev setup)", () => {
  it("is open when neither API keys nor admin keys are configured", async () => {
    const open = await startTestSystem();
    try {
      expect((await open.app.request("/metrics")).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  it("is closed when API keys exist but no admin key does", async () => {
    const closed = await startTestSystem({ env: { MEMSTREAM_API_KEYS: "agent-key" } });
    try {
      const res = await closed.app.request("/metrics", { headers: agentKey });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
        "MEMSTREAM_ADMIN_KEYS",
      );
    } finally {
      await closed.close();
    }
  });
});
