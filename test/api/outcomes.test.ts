import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { startTestSystem, type TestSystem, without } from "../support/system";

// Outcomes and lessons through the real app: offline (template wording) and with the stub LLM
// (versioned prompt). The offline embedder measures task similarity in both. Own database: the
// workers' sweep is deployment-wide, and these systems run workers.
let db: Awaited<ReturnType<typeof ownDatabase>>;
let offline: TestSystem;
let llm: TestSystem;
const env = (url: string) => ({
  DATABASE_URL: url,
  EMBEDDING_PROVIDER: "offline",
  MEMSTREAM_JOB_BACKOFF_MS: "20",
});
beforeAll(async () => {
  db = await ownDatabase("outcomes");
  offline = await startTestSystem({ env: env(db.url) });
  llm = await startTestSystem({ env: { ...env(db.url), LLM_MODEL: "stub-chat" } });
  offline.system.jobs.startWorkers();
  llm.system.jobs.startWorkers();
}, 120_000);
afterAll(async () => {
  await offline?.close();
  await llm?.close();
  await db?.drop();
});

type Outcome = { id: string; kind: string; description: string; importance: number; outcome: unknown };
type Lesson = {
  id: string;
  taskType: string | null;
  polarity: string;
  description: string;
  confidence: number;
  revision: number;
  citations: string[];
  wording: string;
  importance: number;
  stats: { outcomes: number; successes: number; strategies: { strategy: string; attempts: number }[] };
};

const DEPLOY = "Deploy the billing service to staging";
const PORT = "port 8080 already in use";

async function record(t: TestSystem, agent: string, body: Record<string, unknown>): Promise<Outcome> {
  const res = await t.call("POST", `/v1/agents/${agent}/outcomes`, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Outcome;
}

/** Waits until every queued job (consolidation and enrichment) has run. */
const settle = (t: TestSystem) => t.system.jobs.inProcess?.idle();

async function lessons(t: TestSystem, agent: string, taskType?: string): Promise<Lesson[]> {
  const q = taskType === undefined ? "" : `?taskType=${encodeURIComponent(taskType)}`;
  const res = await t.call("GET", `/v1/agents/${agent}/lessons${q}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { lessons: Lesson[] }).lessons;
}

const fail = { task: DEPLOY, taskType: "deploy", success: false, strategy: "in-place restart", error: PORT };
const win = {
  task: "Deploy billing-service to the staging cluster",
  taskType: "deploy",
  success: true,
  strategy: "blue-green deploy",
};

describe("POST /v1/agents/{agentId}/outcomes", () => {
  it("stores an outcome memory described in words, with its structured fields", async () => {
    const agent = uniq("out");
    const o = await record(offline, agent, { ...fail, durationMs: 41_000, metadata: { run: 7 } });
    expect(o).toMatchObject({
      kind: "outcome",
      importance: 6,
      description: `Failed task (deploy) "${DEPLOY}" using in-place restart in 41 s: ${PORT}`,
      metadata: { run: 7 },
      outcome: { ...fail, durationMs: 41_000 },
      status: { importance: "ready", embedding: "pending" },
    });
    const got = await offline.call("GET", `/v1/agents/${agent}/memories/${o.id}`);
    expect(await got.json()).toMatchObject({ id: o.id, kind: "outcome" });
    const ok = await record(offline, agent, {
      task: "Water the plants",
      success: true,
      occurredAt: "2026-01-02T03:04:05Z",
    });
    expect(ok).toMatchObject({
      importance: 4,
      description: 'Succeeded at task "Water the plants".',
      createdAt: "2026-01-02T03:04:05.000Z",
      outcome: { taskType: null, strategy: null, error: null, durationMs: null },
    });
  });

  it("answers 400 naming the field", async () => {
    const agent = uniq("out-bad");
    const cases: [Record<string, unknown>, string][] = [
      [{ task: DEPLOY }, "success"],
      [{ task: "  ", success: true }, "task"],
      [{ task: DEPLOY, success: "yes" }, "success"],
      [{ task: DEPLOY, success: true, taskType: "a\u0000b" }, "taskType"],
      [{ task: DEPLOY, success: true, durationMs: -1 }, "durationMs"],
      [{ task: DEPLOY, success: true, occurredAt: "yesterday" }, "occurredAt"],
      [{ task: DEPLOY, success: true, error: "x".repeat(1_001) }, "error"],
      [{ task: DEPLOY, success: true, kind: "lesson" }, ""],
    ];
    for (const [body, field] of cases) {
      const res = await offline.call("POST", `/v1/agents/${agent}/outcomes`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as {
        error: { code: string; message: string; details?: { field?: string } };
      };
      expect(err.error.code).toBe("invalid_request");
      if (field) expect(err.error.details?.field ?? err.error.message).toContain(field);
    }
    expect(await lessons(offline, agent)).toEqual([]);
  });
});

describe("consolidation into lessons (offline: template wording)", () => {
  it("writes a lesson once 3 similar outcomes accumulate, then revises it in place", async () => {
    const agent = uniq("learn");
    const a = await record(offline, agent, fail);
    const b = await record(offline, agent, { ...fail, task: "Roll out the billing service on staging" });
    await settle(offline);
    expect(await lessons(offline, agent)).toEqual([]);
    // Another task of the same type is not similar enough to join them.
    await record(offline, agent, {
      task: "Rotate the TLS certificate of the public load balancer",
      taskType: "deploy",
      success: true,
      strategy: "certbot",
    });
    const c = await record(offline, agent, win);
    await settle(offline);
    const [first, ...others] = await lessons(offline, agent, "deploy");
    expect(others).toEqual([]);
    expect(first).toMatchObject({
      taskType: "deploy",
      polarity: "heuristic",
      description: `Lesson for deploy tasks like "${DEPLOY}": blue-green deploy works (1 of 1 attempts succeeded). Avoid in-place restart: it failed 2 times with "${PORT}".`,
      confidence: 0.67,
      revision: 1,
      wording: "template:v1",
      importance: 8,
      stats: { outcomes: 3, successes: 1 },
    });
    expect(new Set(first?.citations)).toEqual(new Set([a.id, b.id, c.id]));

    const d = await record(offline, agent, { ...win, task: "Ship the new billing service build to staging" });
    await settle(offline);
    const [second] = await lessons(offline, agent, "deploy");
    expect(second).toMatchObject({
      id: first?.id,
      revision: 2,
      confidence: 0.75,
      description: `Lesson for deploy tasks like "${DEPLOY}": blue-green deploy works (2 of 2 attempts succeeded). Avoid in-place restart: it failed 2 times with "${PORT}".`,
      stats: { outcomes: 4, successes: 2 },
    });
    expect(second?.citations).toContain(d.id);
    // History kept; the memory is the same and was re-embedded for its new wording.
    const history = await queryRows<{ revision: number; description: string }>(
      offline.system.database.db,
      sql`SELECT revision, description FROM lesson_revisions WHERE agent_id = ${agent} ORDER BY revision`,
    );
    expect(history.map((h) => h.revision)).toEqual([1, 2]);
    expect(history[0]?.description).toBe(first?.description);
    const mem = await (await offline.call("GET", `/v1/agents/${agent}/memories/${first?.id}`)).json();
    expect(mem).toMatchObject({
      kind: "lesson",
      description: second?.description,
      embeddingModel: "use-lite-512",
      status: { embedding: "ready", importance: "ready" },
    });
    // Lessons are ordinary memories for retrieve (the HTTP scenario test checks it leads).
    const res = await offline.call("POST", `/v1/agents/${agent}/retrieve`, {
      query: "deploy billing to staging",
      kinds: ["lesson"],
    });
    const ranked = (await res.json()) as { memories: { id: string; kind: string }[] };
    expect(ranked.memories.map((m) => m.id)).toEqual([first?.id]);
    expect(await lessons(offline, agent, "other")).toEqual([]);
  });

  it("writes an anti-pattern after lessons.minOutcomes failures (agent setting)", async () => {
    const agent = uniq("learn-min");
    const put = await offline.call("PUT", `/v1/agents/${agent}/settings`, { lessons: { minOutcomes: 2 } });
    expect(await put.json()).toMatchObject({
      lessons: { minOutcomes: 2 },
      effectiveLessons: { minOutcomes: 2, similarity: 0.65 },
    });
    const bad = await offline.call("PUT", `/v1/agents/${agent}/settings`, { lessons: { minOutcomes: 1 } });
    expect(bad.status).toBe(400);
    await record(offline, agent, fail);
    await record(offline, agent, fail);
    await settle(offline);
    expect(await lessons(offline, agent)).toMatchObject([
      {
        polarity: "anti-pattern",
        description: `Lesson for deploy tasks like "${DEPLOY}": avoid in-place restart: it failed 2 times with "${PORT}".`,
        confidence: 0.75,
      },
    ]);
  });

  it("the sweep consolidates outcomes whose job was lost", async () => {
    const agent = uniq("learn-sweep");
    // Written with its `outcome.recorded` left unannounced: as if the job were lost with the queue.
    const { recordOutcome } = await import("../../src/memory/outcomes/record-outcome");
    const announce = offline.system.services.announce;
    const deps = {
      ...offline.system.services,
      announce: without("outcome.recorded")(announce),
    };
    for (let i = 0; i < 3; i++) await recordOutcome(deps, agent, { ...fail, success: true });
    await settle(offline);
    expect(await lessons(offline, agent)).toEqual([]);
    const { sweepOnce } = await import("../../src/jobs/sweep");
    const n = await sweepOnce({
      db: offline.system.database.db,
      clock: offline.system.services.clock,
      sink: offline.system.jobs.sink,
      afterMs: 0,
      limit: 100,
      embedChunk: 64,
      deliveryAttempts: 1,
    });
    expect(n.outcomes).toBeGreaterThanOrEqual(1);
    await settle(offline);
    expect(await lessons(offline, agent)).toMatchObject([{ polarity: "heuristic", stats: { outcomes: 3 } }]);
  });
});

describe("consolidation with an LLM (versioned prompt)", () => {
  it("words the lesson through the lesson:v1 prompt", async () => {
    const agent = uniq("learn-llm");
    llm.stub.scriptChatWhen(/lesson the agent will read/, [
      `"Deploy billing with blue-green; in-place restarts failed twice on ${PORT}."`,
    ]);
    for (const body of [fail, fail, win]) await record(llm, agent, body);
    await settle(llm);
    const [lesson] = await lessons(llm, agent);
    expect(lesson).toMatchObject({
      description: `Deploy billing with blue-green; in-place restarts failed twice on ${PORT}.`,
      wording: "lesson:v1",
      polarity: "heuristic",
      revision: 1,
    });
    const prompt = llm.stub.requests
      .map((r) => JSON.stringify(r.body))
      .find((b) => b.includes("lesson the agent will read"));
    expect(prompt).toContain("in-place restart: 2 attempts, 0 succeeded, 2 failed");
    expect(prompt).toContain("blue-green deploy: 1 attempts, 1 succeeded, 0 failed");
  });

  it("falls back to the template on the last attempt when the LLM keeps failing", async () => {
    const agent = uniq("learn-llm-down");
    llm.stub.scriptChatWhen(/lesson the agent will read/, [
      { status: 500 },
      { status: 500 },
      { status: 500 },
    ]);
    for (const body of [fail, fail, fail]) await record(llm, agent, body);
    await settle(llm);
    expect(await lessons(llm, agent)).toMatchObject([
      {
        wording: "template:v1",
        description: `Lesson for deploy tasks like "${DEPLOY}": avoid in-place restart: it failed 3 times with "${PORT}".`,
      },
    ]);
  });
});
