import { Queue } from "bullmq";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { githubDeliveries } from "../../src/db/schema";
import { JOB_NAMES } from "../../src/jobs/catalog";
import { child, example } from "../ingest/github/fixtures";
import { obliterateQueues, pipelineEnv, waitFor } from "../jobs/support";
import { TEST_DATABASE_URL, TEST_REDIS_URL, uniq } from "../support/env";
import { deliver, deliveryRow, waitForStatus } from "../support/github";
import { childEnv, type Spawned, spawnEntry } from "../support/spawn";
import { startTestSystem, type TestSystem, without } from "../support/system";

// A worker killed with SIGKILL in the middle of a job loses nothing: BullMQ hands the stalled job
// to the next worker, which finishes it exactly once. Real worker processes (`src/worker.ts`),
// real Redis and Postgres; the model stub holds the reflection's LLM request while the kill lands.
const SECRET = `secret-${uniq("crash")}`;
const QUESTIONS = "1. Why do deploys fail?\n2. Who fixes them?\n3. What breaks?";

let t: TestSystem | null = null;
let prefix = "";
const spawned: Spawned[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const s of spawned.splice(0)) if (s.child.exitCode === null) s.child.kill("SIGKILL");
  for (const c of cleanups.splice(0)) await c();
  await t?.close();
  t = null;
  await obliterateQueues(prefix);
});

/** The API side (no workers in it: it only enqueues) and the env its worker processes share. */
async function start() {
  prefix = uniq("mst");
  const env = { ...pipelineEnv(prefix), GITHUB_WEBHOOK_SECRET: SECRET };
  // Only the jobs under test: enrichment would add importance calls to the stub.
  t = await startTestSystem({ env, announce: without("memories.pending") });
  return { t, env };
}

const worker = (sys: TestSystem, env: Record<string, string>) => {
  const w = spawnEntry("src/worker.ts", childEnv(sys.stub, env));
  spawned.push(w);
  return w;
};

/** Waits until every queue of this test is empty (the job finished, nothing retried later). */
async function queuesDrained() {
  await waitFor("queues drained", async () => {
    let left = 0;
    for (const name of JOB_NAMES) {
      const q = new Queue(name, { connection: { url: TEST_REDIS_URL }, prefix });
      const c = await q.getJobCounts("waiting", "active", "delayed", "prioritized");
      left += Object.values(c).reduce((a, b) => a + b, 0);
      await q.close();
    }
    return left === 0;
  });
}

type Run = { id: string; status: string; error: string | null; insightIds: string[] };

describe("a worker killed mid-job", () => {
  it("mid-reflection: the next worker takes the job over and reflects exactly once", async () => {
    const { t, env } = await start();
    const agent = uniq("crash-reflect");
    await t.call("PUT", `/v1/agents/${agent}/settings`, { reflectionThreshold: 10 });
    const hold = t.stub.holdNextChat(/most salient high-level questions/);
    t.stub.scriptChatWhen(/most salient high-level questions/, [QUESTIONS]);
    t.stub.scriptChatWhen(/high-level insights/, [
      "1. The deploy pipeline is fragile (because of 1, 2)",
      "none",
      "none",
    ]);
    const post = await t.call("POST", `/v1/agents/${agent}/memories`, {
      memories: [
        { description: "the deploy failed at 9am", importance: 6 },
        { description: "the deploy failed again at noon", importance: 6 },
      ],
    });
    expect(post.status).toBe(201);

    const first = worker(t, env);
    await hold.arrived;
    const runsNow = await listRuns(t, agent);
    expect(runsNow.map((r) => r.status)).toEqual(["running"]);
    first.child.kill("SIGKILL");
    await first.exited;
    hold.release();

    worker(t, env);
    const done = await waitFor(
      "a succeeded run",
      async () => {
        const runs = await listRuns(t, agent);
        return runs.some((r) => r.status === "succeeded") ? runs : null;
      },
      60_000,
    );
    await queuesDrained();
    const runs = await listRuns(t, agent);
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({ status: "succeeded" });
    expect(runs[1]).toMatchObject({ id: runsNow[0]?.id, status: "failed" });
    expect(runs[1]?.error).toMatch(/worker died/);
    const reflections = (await (
      await t.call("GET", `/v1/agents/${agent}/memories?kind=reflection`)
    ).json()) as { memories: { id: string; description: string }[] };
    expect(reflections.memories.map((m) => m.description)).toEqual(["The deploy pipeline is fragile"]);
    expect(done[0]?.insightIds).toEqual(reflections.memories.map((m) => m.id));
    await t.call("DELETE", `/v1/agents/${agent}`);
  }, 120_000);

  it("mid-delivery: the next worker processes the delivery exactly once", async () => {
    const { t, env } = await start();
    const repo = `acme/crash-${uniq("d")}`;
    const agent = `github:${repo}`;
    const id = uniq("delivery");
    const payload = example("issues", "opened");
    child(payload, "repository").full_name = repo;

    // Hold the delivery's row lock, so the first worker blocks inside its processing transaction.
    const pg = postgres(TEST_DATABASE_URL, { max: 2, onnotice: () => {} });
    cleanups.push(() => pg.end());
    const holder = await pg.reserve();
    expect(
      (await deliver(t, { event: "issues", id, body: JSON.stringify(payload), secret: SECRET })).status,
    ).toBe(202);
    await holder`BEGIN`;
    await holder`SELECT 1 FROM github_deliveries WHERE id = ${id} FOR UPDATE`;
    const [{ pid }] = (await holder`SELECT pg_backend_pid() AS pid`) as unknown as [{ pid: number }];

    const first = worker(t, env);
    await waitFor(
      "the first worker blocked on the delivery",
      async () => {
        const [row] =
          await pg`SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${pid} = ANY(pg_blocking_pids(pid))`;
        return (row?.n ?? 0) > 0;
      },
      60_000,
    );
    first.child.kill("SIGKILL");
    await first.exited;
    await holder`ROLLBACK`;
    holder.release();
    expect((await deliveryRow(t, id))?.status).toBe("received");

    worker(t, env);
    const row = await waitForStatus(t, id, "processed", 60_000);
    await queuesDrained();
    expect(row).toMatchObject({ observations: 1, attempts: 0 });
    const stream = (await (
      await t.call("GET", `/v1/agents/${encodeURIComponent(agent)}/memories`)
    ).json()) as {
      memories: unknown[];
    };
    expect(stream.memories).toHaveLength(1);
    await t.call("DELETE", `/v1/agents/${encodeURIComponent(agent)}`);
    await t.system.services.db.delete(githubDeliveries).where(eq(githubDeliveries.id, id));
  }, 120_000);
});

async function listRuns(t: TestSystem, agent: string): Promise<Run[]> {
  const res = await t.call("GET", `/v1/agents/${agent}/reflections/runs`);
  return ((await res.json()) as { runs: Run[] }).runs;
}
