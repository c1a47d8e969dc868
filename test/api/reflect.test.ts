import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reflectionRuns } from "../../src/db/schema";
import { reflectOnThreshold } from "../../src/memory/reflect/should-reflect";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem, without } from "../support/system";

type Mem = {
  id: string;
  kind: string;
  description: string;
  citations: string[];
  missingCitations?: string[];
  metadata: Record<string, unknown>;
};
type Run = {
  id: string;
  trigger: string;
  status: string;
  promptVersion: string | null;
  questions: string[];
  insightIds: string[];
  usage: { promptTokens: number; completionTokens: number; llmCalls: number };
  error: string | null;
};

const QUESTIONS = "1. What does Ada care about?\n2. How does Ada work?\n3. Who does Ada trust?";

let t: TestSystem;
beforeAll(async () => {
  // Threshold reflections are `agent.reflect` jobs on the in-process queue. No enrichment jobs:
  // importance scoring would consume the scripted chat replies. Nor a sweep: it is deployment-wide,
  // so in the shared test database it would score other files' pending memories with this stub.
  t = await startTestSystem({
    env: { LLM_MODEL: "stub-chat", MEMSTREAM_JOB_BACKOFF_MS: "20", MEMSTREAM_SWEEP_AFTER_MS: "86400000" },
    announce: without("memories.pending"),
  });
  t.system.jobs.startWorkers();
});
afterAll(() => t.close());

/** Waits until every job enqueued so far (a threshold reflection, its retries) has finished. */
const jobsIdle = () => t.system.jobs.inProcess?.idle();

async function seed(agent: string, items: { text: string; importance?: number }[]): Promise<Mem[]> {
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
    memories: items.map((i) => ({
      description: i.text,
      ...(i.importance === undefined ? {} : { importance: i.importance }),
    })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { memories: Mem[] }).memories;
}

async function reflections(agent: string): Promise<Mem[]> {
  const res = await t.call("GET", `/v1/agents/${agent}/memories?kind=reflection`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { memories: Mem[] }).memories;
}

async function runs(agent: string): Promise<Run[]> {
  const res = await t.call("GET", `/v1/agents/${agent}/reflections/runs`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { runs: Run[] }).runs;
}

/** The numbered statements of each insights prompt the stub received since `from`. */
function insightPrompts(from: number): string[][] {
  return t.stub.requests
    .slice(from)
    .filter((r) => r.path === "/v1/chat/completions")
    .map((r) => (r.body as { messages: { content: string }[] }).messages.at(-1)?.content ?? "")
    .filter((p) => p.startsWith("Statements:"))
    .map((p) =>
      [...(p.split("These statements were selected")[0] ?? "").matchAll(/^\d+\. (.*)$/gm)].map(
        (m) => m[1] ?? "",
      ),
    );
}

const OBSERVATIONS = [
  { text: "Ada reviewed the payment service pull request carefully", importance: 6 },
  { text: "Ada fixed the flaky CI job on main", importance: 7 },
  { text: "Ada asked Grace to pair on the database migration", importance: 5 },
  { text: "Ada wrote tests before changing the retry logic", importance: 4 },
  { text: "Grace approved the migration Ada wrote", importance: 5 },
];

describe("POST /v1/agents/{agentId}/reflect", () => {
  it("stores insights as reflection memories whose citations map to the statements they cite", async () => {
    const agent = uniq("reflect");
    const seeded = await seed(agent, OBSERVATIONS);
    const idByText = new Map(seeded.map((m) => [m.description, m.id]));
    const from = t.stub.requests.length;
    // Scripted per prompt, so no other chat call (an importance score) can take these answers.
    t.stub.scriptChatWhen(/most salient high-level questions/, [QUESTIONS]);
    t.stub.scriptChatWhen(/selected for the question/, [
      // 9 is invented (only 5 statements): dropped; "Careless" cites nothing real: rejected.
      "1. Ada values careful review (because of 1, 9)\n2. Careless insight (because of 9)\n3. Ada tests first (because of 4, 2)",
      "1. Ada collaborates with Grace (because of 3, 5)",
      "I cannot answer that.",
    ]);

    const res = await t.call("POST", `/v1/agents/${agent}/reflect`);
    expect(res.status).toBe(200);
    const { run, insights } = (await res.json()) as { run: Run; insights: Mem[] };

    expect(run).toMatchObject({ trigger: "manual", status: "succeeded", promptVersion: "v1", error: null });
    expect(run.questions).toEqual(["What does Ada care about?", "How does Ada work?", "Who does Ada trust?"]);
    expect(run.usage.llmCalls).toBe(4);
    expect(run.usage.promptTokens).toBeGreaterThan(0);
    expect(run.usage.completionTokens).toBeGreaterThan(0);
    expect(insights.map((m) => m.description)).toEqual([
      "Ada values careful review",
      "Ada tests first",
      "Ada collaborates with Grace",
    ]);
    expect(run.insightIds).toEqual(insights.map((m) => m.id));

    // Citations are the ids of exactly the statements cited, as numbered in each prompt.
    const [p1, p2] = insightPrompts(from);
    const ids = (prompt: string[] | undefined, ns: number[]) =>
      ns.map((n) => idByText.get(prompt?.[n - 1] ?? "") ?? `missing statement ${n}`);
    expect(insights[0]?.citations).toEqual(ids(p1, [1]));
    expect(insights[1]?.citations).toEqual(ids(p1, [4, 2]));
    expect(insights[2]?.citations).toEqual(ids(p2, [3, 5]));
    for (const m of insights) {
      expect(m.kind).toBe("reflection");
      expect(m.metadata).toMatchObject({ reflectionRunId: run.id });
    }

    // The prompt version is stored on each reflection.
    const rows = await t.system.database.db.query.memories.findMany({
      where: (m, { eq }) => eq(m.agentId, agent),
    });
    expect(rows.filter((r) => r.kind === "reflection").map((r) => r.promptVersion)).toEqual([
      "v1",
      "v1",
      "v1",
    ]);
    expect((await runs(agent)).map((r) => r.id)).toEqual([run.id]);
  });

  it("lets reflections cite reflections", async () => {
    const agent = uniq("reflect-deep");
    await seed(agent, OBSERVATIONS);
    t.stub.scriptChat([QUESTIONS, "1. Ada is meticulous (because of 1, 2)", "no insight", "no insight"]);
    expect((await t.call("POST", `/v1/agents/${agent}/reflect`)).status).toBe(200);
    const [first] = await reflections(agent);

    // Second run: every statement is cited, the first reflection among them.
    const from = t.stub.requests.length;
    t.stub.scriptChat([
      QUESTIONS,
      "1. Ada is a dependable engineer (because of 1, 2, 3, 4, 5, 6)",
      "none",
      "none",
    ]);
    const res = await t.call("POST", `/v1/agents/${agent}/reflect`);
    expect(res.status).toBe(200);
    const { insights } = (await res.json()) as { insights: Mem[] };
    expect(insightPrompts(from)[0]).toContain("Ada is meticulous");
    expect(insights[0]?.citations).toContain(first?.id);
    expect(insights[0]?.citations).toHaveLength(6);
  });

  it("a failed LLM call fails the run and stores no insight", async () => {
    const agent = uniq("reflect-fail");
    await seed(agent, OBSERVATIONS);
    // The first question's insights are fine; the second question's call fails.
    t.stub.scriptChat([QUESTIONS, "1. Ada values careful review (because of 1)", { status: 500 }]);

    const res = await t.call("POST", `/v1/agents/${agent}/reflect`);
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { code: string; details: { runId: string } } };
    expect(body.error.code).toBe("reflection_failed");

    const [run] = await runs(agent);
    expect(run).toMatchObject({ id: body.error.details.runId, status: "failed", insightIds: [] });
    expect(run?.error).toMatch(/500/);
    expect(run?.usage.llmCalls).toBe(3);
    expect(await reflections(agent)).toEqual([]);
  });

  it("answers 409 to a second reflection while one is running", async () => {
    const agent = uniq("reflect-busy");
    await seed(agent, OBSERVATIONS);
    t.stub.scriptChat([QUESTIONS, "1. A (because of 1)", "1. B (because of 2)", "1. C (because of 3)"]);
    t.stub.setMode({ kind: "slow", ms: 150 });
    try {
      const [a, b] = await Promise.all([
        t.call("POST", `/v1/agents/${agent}/reflect`),
        t.call("POST", `/v1/agents/${agent}/reflect`),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([200, 409]);
      const ok = (await (a.status === 200 ? a : b).json()) as { run: Run };
      const busy = (await (a.status === 409 ? a : b).json()) as { error: { code: string; details: object } };
      expect(busy.error).toMatchObject({ code: "conflict", details: { runId: ok.run.id } });
    } finally {
      t.stub.setMode({ kind: "ok" });
    }
    expect(await runs(agent)).toHaveLength(1);
  });

  it("an agent with no memories gets an empty succeeded run and no LLM call", async () => {
    const agent = uniq("reflect-empty");
    const before = t.stub.calls.chat;
    const res = await t.call("POST", `/v1/agents/${agent}/reflect`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ run: { status: "succeeded", questions: [] }, insights: [] });
    expect(t.stub.calls.chat).toBe(before);
  });
});

describe("threshold trigger", () => {
  it("fires when the summed importance reaches the agent's threshold, and not before", async () => {
    const agent = uniq("trigger");
    const put = await t.call("PUT", `/v1/agents/${agent}/settings`, { reflectionThreshold: 20 });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({
      agentId: agent,
      reflectionThreshold: 20,
      effectiveReflectionThreshold: 20,
    });

    await seed(
      agent,
      OBSERVATIONS.slice(0, 3).map((o) => ({ ...o, importance: 5 })),
    ); // 15
    await seed(agent, [{ text: "Ada drank coffee" }]); // unscored: does not count
    await jobsIdle();
    expect(await runs(agent)).toEqual([]);

    t.stub.scriptChat([QUESTIONS, "1. Ada ships (because of 1)", "1. Ada reviews (because of 2)", "none"]);
    await seed(agent, [{ text: "Ada released version 2", importance: 5 }]); // 20: reached
    await jobsIdle();
    const after = await runs(agent);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ trigger: "threshold", status: "succeeded" });
    expect((await reflections(agent)).map((m) => m.description).sort()).toEqual(["Ada reviews", "Ada ships"]);

    // The sum restarts after the run: reflections do not count, new importance 5 < 20.
    await seed(agent, [{ text: "Ada went home", importance: 5 }]);
    await jobsIdle();
    expect(await runs(agent)).toHaveLength(1);
  });

  it("threshold 0 turns the trigger off for that agent", async () => {
    const agent = uniq("trigger-off");
    await t.call("PUT", `/v1/agents/${agent}/settings`, { reflectionThreshold: 0 });
    const chats = t.stub.calls.chat;
    await seed(agent, [{ text: "Ada found a data loss bug", importance: 10 }]);
    await jobsIdle();
    expect(await runs(agent)).toEqual([]);
    expect(t.stub.calls.chat).toBe(chats);
  });

  it("two triggers at once run one reflection", async () => {
    const agent = uniq("trigger-twice");
    await t.call("PUT", `/v1/agents/${agent}/settings`, { reflectionThreshold: 0 });
    await seed(agent, OBSERVATIONS);
    await t.call("PUT", `/v1/agents/${agent}/settings`, { reflectionThreshold: 10 });
    t.stub.scriptChat([QUESTIONS, "1. A (because of 1)", "1. B (because of 2)", "1. C (because of 3)"]);
    t.stub.setMode({ kind: "slow", ms: 100 });
    try {
      // As two processes would: each checks the threshold, both try to claim the run.
      const results = await Promise.all([
        reflectOnThreshold(t.system.services, agent),
        reflectOnThreshold(t.system.services, agent),
      ]);
      expect(results.filter((r) => r !== null)).toHaveLength(1);
    } finally {
      t.stub.setMode({ kind: "ok" });
    }
    const all = await runs(agent);
    expect(all).toHaveLength(1);
    expect(all[0]?.status).toBe("succeeded");
  });

  it("a failed threshold run is retried by its job", async () => {
    const agent = uniq("trigger-retry");
    await t.call("PUT", `/v1/agents/${agent}/settings`, { reflectionThreshold: 10 });
    t.stub.scriptChat([{ status: 500 }, QUESTIONS, "1. Ada breaks deploys (because of 1)", "none", "none"]);
    await seed(agent, [{ text: "Ada broke the deploy", importance: 10 }]);
    await jobsIdle();
    expect((await runs(agent)).map((r) => r.status)).toEqual(["succeeded", "failed"]);
    expect((await reflections(agent)).map((m) => m.description)).toEqual(["Ada breaks deploys"]);
  });

  it("after the job's last failed run, threshold triggers back off; manual reflection does not", async () => {
    const agent = uniq("trigger-backoff");
    await t.call("PUT", `/v1/agents/${agent}/settings`, { reflectionThreshold: 10 });
    t.stub.scriptChat([{ status: 500 }, { status: 500 }, { status: 500 }]);
    await seed(agent, [{ text: "Ada broke the deploy", importance: 10 }]);
    await jobsIdle();
    // Three attempts (the catalog's agent.reflect policy), each a failed run; the last is final.
    expect((await runs(agent)).map((r) => r.status)).toEqual(["failed", "failed", "failed"]);

    const chats = t.stub.calls.chat;
    await seed(agent, [{ text: "Ada broke the deploy again", importance: 10 }]);
    await jobsIdle();
    expect(await runs(agent)).toHaveLength(3);
    expect(t.stub.calls.chat).toBe(chats);

    t.stub.scriptChat([QUESTIONS, "1. Ada breaks deploys (because of 1, 2)", "none", "none"]);
    expect((await t.call("POST", `/v1/agents/${agent}/reflect`)).status).toBe(200);
  });

  it("a run abandoned by a dead process does not lock the agent out", async () => {
    const agent = uniq("stale");
    await seed(agent, OBSERVATIONS);
    const startedAt = new Date(Date.now() - 20 * 60_000);
    await t.system.database.db
      .insert(reflectionRuns)
      .values({ id: `ref_${agent}`, agentId: agent, trigger: "threshold", status: "running", startedAt });
    t.stub.scriptChat([QUESTIONS, "1. A (because of 1)", "none", "none"]);
    expect((await t.call("POST", `/v1/agents/${agent}/reflect`)).status).toBe(200);
    const [latest, abandoned] = await runs(agent);
    expect(latest?.status).toBe("succeeded");
    expect(abandoned).toMatchObject({ id: `ref_${agent}`, status: "failed" });
    expect(abandoned?.error).toMatch(/abandoned/);
  });

  it("rejects a negative threshold, naming the field", async () => {
    const res = await t.call("PUT", `/v1/agents/${uniq("settings")}/settings`, { reflectionThreshold: -1 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: { field: string } } }).error.details.field).toBe(
      "body.reflectionThreshold",
    );
  });
});

describe("deleting and erasing", () => {
  it("a reflection is deleted with a memory it cites, and the answer counts it", async () => {
    const agent = uniq("gone");
    const seeded = await seed(agent, OBSERVATIONS);
    t.stub.scriptChat([QUESTIONS, "1. Ada is thorough (because of 1, 2)", "none", "none"]);
    const { insights } = (await (await t.call("POST", `/v1/agents/${agent}/reflect`)).json()) as {
      insights: Mem[];
    };
    const reflection = insights[0];
    const cited = reflection?.citations ?? [];
    expect(cited).toHaveLength(2);
    expect(seeded.map((m) => m.id)).toEqual(expect.arrayContaining(cited));

    const res = await t.call("DELETE", `/v1/agents/${agent}/memories/${cited[0]}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: cited[0], derived: { reflection: 1 } });
    expect((await t.call("GET", `/v1/agents/${agent}/memories/${reflection?.id}`)).status).toBe(404);
    expect(await reflections(agent)).toEqual([]);
    // The other cited memory stays: only what was derived goes.
    expect((await t.call("GET", `/v1/agents/${agent}/memories/${cited[1]}`)).status).toBe(200);
  });

  it("erasing an agent erases its reflections and runs", async () => {
    const agent = uniq("erase");
    await seed(agent, OBSERVATIONS);
    t.stub.scriptChat([QUESTIONS, "1. Ada is thorough (because of 1, 2)", "none", "none"]);
    expect((await t.call("POST", `/v1/agents/${agent}/reflect`)).status).toBe(200);
    expect((await t.call("DELETE", `/v1/agents/${agent}`)).status).toBe(200);
    expect(await reflections(agent)).toEqual([]);
    expect(await runs(agent)).toEqual([]);
  });
});

describe("without an LLM", () => {
  let off: TestSystem;
  beforeAll(async () => {
    off = await startTestSystem({ env: { MEMSTREAM_API_KEYS: "k1=tenant-a" } });
  });
  afterAll(() => off.close());
  const auth = { authorization: "Bearer k1" };

  it("reflection answers 501 not_configured; everything else works", async () => {
    const agent = uniq("tenant-a-off");
    const created = await off.call(
      "POST",
      `/v1/agents/${agent}/memories`,
      { description: "Ada lost the production database", importance: 10 },
      auth,
    );
    expect(created.status).toBe(201);
    const res = await off.call("POST", `/v1/agents/${agent}/reflect`, undefined, auth);
    expect(res.status).toBe(501);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("not_configured");
    expect(body.error.message).toMatch(/LLM_MODEL/);
    expect((await off.call("GET", `/v1/agents/${agent}/reflections/runs`, undefined, auth)).status).toBe(200);
    expect(off.stub.calls.chat).toBe(0);
  });

  it("the reflection routes check the key and its agent prefix", async () => {
    const other = uniq("tenant-b");
    expect((await off.call("POST", `/v1/agents/${other}/reflect`)).status).toBe(401);
    expect((await off.call("POST", `/v1/agents/${other}/reflect`, undefined, auth)).status).toBe(404);
    expect((await off.call("GET", `/v1/agents/${other}/reflections/runs`, undefined, auth)).status).toBe(404);
    expect(
      (await off.call("PUT", `/v1/agents/${other}/settings`, { reflectionThreshold: 5 }, auth)).status,
    ).toBe(404);
  });
});
