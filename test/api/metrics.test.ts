import { once } from "node:events";
import { createServer, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobRequest } from "../../src/jobs/catalog";
import { allReady, obliterateQueues, pipelineEnv, postMany, waitFor } from "../jobs/support";
import { uniq } from "../support/env";
import { deliver } from "../support/github";
import { ownDatabase } from "../support/own-database";
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
    if (want.length === 0 && line.startsWith(`${name} `)) return Number(line.slice(name.length + 1));
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
      body: JSON.stringify({ query: "deploy", mode: "exact", relevance: "vector" }),
    });
    expect(retrieved.status).toBe(200);

    const after = await scrape();
    const count = "memstream_http_request_duration_seconds_count";
    const created = { method: "POST", route, status: "201" };
    expect(sample(after, count, created) - sample(before, count, created)).toBe(2);
    const rejected = { method: "POST", route, status: "400" };
    expect(sample(after, count, rejected) - sample(before, count, rejected)).toBe(1);
    // A small stream: the planner scores every memory (plan.ts), and the label says so.
    const exact = { mode: "exact", plan: "full", relevance: "vector" };
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

describe("reflection and webhook counters", () => {
  let r: TestSystem;
  beforeAll(async () => {
    r = await startTestSystem({ env: { LLM_MODEL: "stub-chat", GITHUB_WEBHOOK_SECRET: "hook-secret" } });
  });
  afterAll(() => r.close());
  const text = async () => (await r.app.request("/metrics")).text();

  it("counts finished reflection runs by trigger and outcome, and the tokens they spent", async () => {
    const agent = `/v1/agents/${uniq("reflect-metrics")}`;
    const seeded = await r.call("POST", `${agent}/memories`, {
      memories: ["Ada fixed the flaky test", "Ada reviewed the migration"].map((d) => ({
        description: d,
        importance: 6,
      })),
    });
    expect(seeded.status).toBe(201);
    const before = await text();
    r.stub.scriptChat(["1. What does Ada do?", "1. Ada is careful (because of 1, 2)"]);
    expect((await r.call("POST", `${agent}/reflect`, {})).status).toBe(200);
    r.stub.scriptChat([{ status: 500 }]);
    expect((await r.call("POST", `${agent}/reflect`, {})).status).toBe(502);
    const after = await text();
    const runs = "memstream_reflection_runs_total";
    const ok = { trigger: "manual", outcome: "succeeded" };
    const failed = { trigger: "manual", outcome: "failed" };
    expect(sample(after, runs, ok) - sample(before, runs, ok)).toBe(1);
    expect(sample(after, runs, failed) - sample(before, runs, failed)).toBe(1);
    const tokens = "memstream_reflection_tokens_total";
    expect(sample(after, tokens, { kind: "prompt" })).toBeGreaterThan(
      sample(before, tokens, { kind: "prompt" }),
    );
  });

  it("counts webhook deliveries accepted, duplicate and rejected", async () => {
    const before = await text();
    const body = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
    const id = uniq("delivery");
    expect((await deliver(r, { event: "ping", id, body, secret: "hook-secret" })).status).toBe(200);
    expect((await deliver(r, { event: "ping", id, body, secret: "hook-secret" })).status).toBe(200);
    expect((await deliver(r, { event: "ping", id: uniq("delivery"), body, secret: "wrong" })).status).toBe(
      401,
    );
    const after = await text();
    const name = "memstream_webhook_deliveries_total";
    for (const status of ["accepted", "duplicate", "rejected"]) {
      expect(sample(after, name, { status }) - sample(before, name, { status }), status).toBe(1);
    }
  });
});

describe.each(["bullmq", "in-process"] as const)(
  "job, queue, enrichment and candidate series (%s workers)",
  (kind) => {
    it("queue depth while jobs wait, then job durations by outcome, enrichment lag and retrieve candidates", async () => {
      // A database of its own: its workers' sweep must not take other files' pending memories.
      const own = await ownDatabase("metrics");
      const prefix = uniq("mst");
      const { REDIS_URL, MEMSTREAM_QUEUE_PREFIX, ...inProcess } = pipelineEnv(prefix);
      const env = kind === "bullmq" ? pipelineEnv(prefix) : inProcess;
      const m = await startTestSystem({ env: { ...env, DATABASE_URL: own.url } });
      try {
        const text = async () => (await m.app.request("/metrics")).text();
        const agent = uniq("metrics-jobs");
        // Written before any worker runs: their jobs wait in the queue.
        await postMany(m, agent, 3, (i) => `The deploy number ${i} failed`);
        // A job whose payload fails validation: one failed attempt, not retried.
        const bad = { id: uniq("bad"), name: "agent.reflect", payload: {} } as unknown as JobRequest;
        await m.system.jobs.sink.enqueue([bad]);
        const waiting = await text();
        const depth = "memstream_queue_jobs";
        expect(sample(waiting, depth, { job: "memories.embed", state: "waiting" })).toBeGreaterThan(0);
        expect(sample(waiting, depth, { job: "memories.score", state: "waiting" })).toBeGreaterThan(0);
        expect(sample(waiting, depth, { job: "agent.reflect", state: "waiting" })).toBe(1);

        m.system.jobs.startWorkers();
        await allReady(m, agent, 3, 60_000);
        const durations = "memstream_job_duration_seconds_count";
        // A job is timed once its processor returns, after its rows are visibly ready: poll.
        const lag = "memstream_enrichment_lag_seconds_count";
        const after = await waitFor("every attempt timed and the queues drained", async () => {
          const t = await text();
          const done =
            sample(t, durations, { job: "agent.reflect", outcome: "failed" }) === 1 &&
            ["memories.embed", "memories.score"].every(
              (job) =>
                sample(t, durations, { job, outcome: "completed" }) > 0 &&
                sample(t, depth, { job, state: "waiting" }) === 0 &&
                sample(t, depth, { job, state: "active" }) === 0,
            ) &&
            sample(t, lag, { field: "embedding" }) === 3 &&
            sample(t, lag, { field: "importance" }) === 3;
          return done ? t : null;
        });
        for (const job of ["memories.embed", "memories.score"]) {
          expect(
            sample(after, "memstream_job_duration_seconds_sum", { job, outcome: "completed" }),
          ).toBeGreaterThan(0);
        }
        // Drained: the depth series are still there, at 0.
        expect(after).toContain(`${depth}{job="memories.embed",state="waiting"} 0`);
        expect(after).toContain(`${depth}{job="memories.embed",state="active"} 0`);
        // Each memory became ready exactly once per field (a later sample would still be 3).
        expect(sample(await text(), lag, { field: "embedding" })).toBe(3);

        const res = await m.call("POST", `/v1/agents/${agent}/retrieve`, { query: "deploy", mode: "exact" });
        expect(res.status).toBe(200);
        expect(await res.json()).not.toHaveProperty("candidates");
        const ranked = await text();
        // The exact ranking scored the agent's whole (small) stream.
        expect(sample(ranked, "memstream_retrieve_candidates_count", { mode: "exact", plan: "full" })).toBe(
          1,
        );
        expect(sample(ranked, "memstream_retrieve_candidates_sum", { mode: "exact", plan: "full" })).toBe(3);
      } finally {
        await m.close();
        if (kind === "bullmq") await obliterateQueues(prefix);
        await own.drop();
      }
    }, 120_000);
  },
);

describe("queue depth with Redis not answering", () => {
  it("leaves the depth out after a bounded wait, counts the failure, and still answers the other metrics", async () => {
    // Accepts connections and never answers: every Redis command hangs.
    const sockets = new Set<Socket>();
    const hole = createServer((s) => void sockets.add(s));
    hole.listen(0, "127.0.0.1");
    await once(hole, "listening");
    const port = (hole.address() as { port: number }).port;
    const h = await startTestSystem({
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, MEMSTREAM_WORKERS: "off" },
    });
    try {
      expect((await h.app.request("/healthz")).status).toBe(200);
      const res = await h.app.request("/metrics");
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toContain(
        'memstream_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"} 1',
      );
      expect(text).not.toMatch(/^memstream_queue_jobs\{/m);
      expect(sample(text, "memstream_queue_depth_errors_total", {})).toBe(1);
    } finally {
      await h.close();
      for (const s of sockets) s.destroy();
      hole.close();
    }
  }, 60_000);
});
