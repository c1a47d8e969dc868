import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Memory } from "../../src/memory/types";
import { uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { startTestSystem, type TestSystem } from "../support/system";

// Retention against real lessons (outcomes consolidated by the in-process workers, offline
// embedder, template wording). Own database: these workers' sweep is deployment-wide.
let db: Awaited<ReturnType<typeof ownDatabase>>;
let t: TestSystem;
beforeAll(async () => {
  db = await ownDatabase("retain-lessons");
  t = await startTestSystem({ env: { DATABASE_URL: db.url, EMBEDDING_PROVIDER: "offline" } });
  t.system.jobs.startWorkers();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
const DEPLOY = "Deploy the billing service to staging";
const fail = {
  task: DEPLOY,
  taskType: "deploy",
  success: false,
  strategy: "in-place restart",
  error: "port 8080 in use",
};
const win = { task: DEPLOY, taskType: "deploy", success: true, strategy: "blue-green deploy" };
const settle = () => t.system.jobs.inProcess?.idle();
type Lesson = { id: string; citations: string[]; missingCitations?: string[] };

async function record(agent: string, body: object): Promise<Memory> {
  const res = await t.call("POST", `/v1/agents/${agent}/outcomes`, body);
  expect(res.status).toBe(201);
  return (await res.json()) as Memory;
}
async function lessons(agent: string, taskType: string): Promise<Lesson[]> {
  const res = await t.call("GET", `/v1/agents/${agent}/lessons?taskType=${taskType}`);
  return ((await res.json()) as { lessons: Lesson[] }).lessons;
}
async function forget(agent: string, body: object) {
  const res = await t.call("POST", `/v1/agents/${agent}/forget`, body);
  expect(res.status).toBe(200);
  return (await res.json()) as { count: number; byKind: Record<string, number>; sample: string[] };
}

describe("retention with lessons", () => {
  it("never deletes a lesson nor the outcomes it cites; the prompt block leads with the lesson", async () => {
    const agent = uniq("retain-lesson");
    const outcomes = [
      await record(agent, { ...fail, occurredAt: daysAgo(60) }),
      await record(agent, { ...fail, occurredAt: daysAgo(59) }),
      await record(agent, { ...win, occurredAt: daysAgo(58) }),
    ];
    await settle();
    const [lesson] = await lessons(agent, "deploy");
    expect([...(lesson?.citations ?? [])].sort()).toEqual(outcomes.map((o) => o.id).sort());
    const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
      description: "the staging cluster was slow today",
      importance: 2,
      createdAt: daysAgo(45),
    });
    const note = (await res.json()) as Memory;

    // maxMemories 0 asks for everything: only the uncited observation may go.
    const policy = { maxMemories: 0, maxAgeDays: 1 };
    expect(await forget(agent, { dryRun: true, policy })).toMatchObject({ count: 1, sample: [note.id] });
    expect(await forget(agent, { policy })).toMatchObject({ count: 1, byKind: { observation: 1 } });
    const [after] = await lessons(agent, "deploy");
    expect(after).toMatchObject({ id: lesson?.id, citations: lesson?.citations });
    expect(after?.missingCitations).toBeUndefined();

    const block = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
      query: "How should I deploy the billing service to staging?",
      format: "text",
      maxTokens: 400,
      sections: [{ kinds: ["lesson"] }, { kinds: ["reflection"] }, { kinds: ["outcome", "observation"] }],
    });
    const { context, memories } = (await block.json()) as { context: { text: string }; memories: Memory[] };
    expect(memories[0]?.id).toBe(lesson?.id);
    expect(context.text.startsWith("Lessons (most relevant first):\n- ")).toBe(true);
    expect(context.text).toContain("\n\nOutcomes and observations (most relevant first):\n");
  });

  it("a forgotten outcome does not come back through consolidation", async () => {
    const agent = uniq("retain-outcome");
    const old = await record(agent, { ...fail, taskType: "backup", occurredAt: daysAgo(90) });
    await settle();
    expect(await forget(agent, { policy: { maxAgeDays: 30 } })).toMatchObject({ count: 1, sample: [old.id] });
    // Two more similar outcomes: with the forgotten one there would be three, enough for a lesson.
    await record(agent, { ...fail, taskType: "backup" });
    await record(agent, { ...win, taskType: "backup" });
    await settle();
    expect(await lessons(agent, "backup")).toEqual([]);
    expect((await t.call("GET", `/v1/agents/${agent}/memories/${old.id}`)).status).toBe(404);
    // Control: the same three outcomes, none forgotten, make a lesson.
    const control = uniq("retain-control");
    await record(control, { ...fail, taskType: "backup", occurredAt: daysAgo(90) });
    await record(control, { ...fail, taskType: "backup" });
    await record(control, { ...win, taskType: "backup" });
    await settle();
    expect(await lessons(control, "backup")).toHaveLength(1);
  });
});
