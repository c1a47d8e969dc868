import { Queue } from "bullmq";
import { afterEach, expect, it } from "vitest";
import { JOB_NAMES, type JobName } from "../../src/jobs/catalog";
import { example } from "../ingest/github/fixtures";
import { TEST_REDIS_URL, uniq } from "../support/env";
import { sign, waitForStatus } from "../support/github";
import { childEnv, type Spawned, spawnEntry } from "../support/spawn";
import { type Stub, startStubOpenAI } from "../support/stub-openai";
import { startTestSystem, type TestSystem } from "../support/system";
import { obliterateQueues, waitFor } from "./support";

// `npm start` with MEMSTREAM_WORKERS=off runs no job at all: writes, webhooks and threshold
// reflections only enqueue; a worker elsewhere runs them. The real entry point, real Redis.
const prefix = uniq("mst");
const SECRET = `secret-${prefix}`;
let server: Spawned | null = null;
let stub: Stub | null = null;
let worker: TestSystem | null = null;
afterEach(async () => {
  if (server?.child.exitCode === null) server.child.kill("SIGKILL");
  await worker?.close();
  await stub?.close();
  await obliterateQueues(prefix);
});

async function counts(): Promise<Record<JobName, { waiting: number; active: number }>> {
  const out = {} as Record<JobName, { waiting: number; active: number }>;
  for (const name of JOB_NAMES) {
    const q = new Queue(name, { connection: { url: TEST_REDIS_URL }, prefix });
    const c = await q.getJobCounts("waiting", "active");
    out[name] = { waiting: c.waiting ?? 0, active: c.active ?? 0 };
    await q.close();
  }
  return out;
}

it("enqueues embed, score, deliver and reflect jobs and runs none of them", async () => {
  stub = await startStubOpenAI();
  const env = {
    REDIS_URL: TEST_REDIS_URL,
    MEMSTREAM_QUEUE_PREFIX: prefix,
    MEMSTREAM_WORKERS: "off",
    LLM_MODEL: "stub-chat",
    REFLECTION_THRESHOLD: "10",
    GITHUB_WEBHOOK_SECRET: SECRET,
    MEMSTREAM_SWEEP_INTERVAL_MS: "100",
    MEMSTREAM_SWEEP_AFTER_MS: "0",
    PORT: "0",
  };
  server = spawnEntry("src/server.ts", childEnv(stub, env));
  const url = String((await server.waitForLog(/^listening$/)).url);

  const agent = uniq("off");
  const post = await fetch(`${url}/v1/agents/${agent}/memories`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      memories: [
        { description: "the deploy failed", importance: 6 },
        { description: "the deploy failed again", importance: 6 },
      ],
    }),
  });
  expect(post.status).toBe(201);
  const repo = `acme/off-${prefix}`;
  const payload = example("issues", "opened");
  (payload.repository as { full_name: string }).full_name = repo;
  const body = JSON.stringify(payload);
  const deliveryId = uniq("off-delivery");
  const hook = await fetch(`${url}/webhooks/github`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-github-event": "issues",
      "x-github-delivery": deliveryId,
      "x-hub-signature-256": sign(body, SECRET),
    },
    body,
  });
  expect(hook.status).toBe(202);

  // Every job was enqueued before the responses; none is taken by the API.
  const queued = await counts();
  expect(queued["agent.reflect"]).toEqual({ waiting: 1, active: 0 });
  expect(queued["github.deliver"]).toEqual({ waiting: 1, active: 0 });
  expect(queued["memories.embed"]).toEqual({ waiting: 1, active: 0 });
  server.child.kill("SIGTERM");
  expect(await server.exited).toBe(0);
  expect(await counts()).toEqual(queued);
  expect(stub.calls).toEqual({ embeddings: 0, chat: 0, models: 0 });
  // No sweep ran in the API either: the logs say nothing was re-enqueued.
  expect(server.logs.filter((l) => l.msg === "sweep re-enqueued pending work")).toEqual([]);

  // A worker elsewhere runs them.
  const w = await startTestSystem({ env: { ...env, MEMSTREAM_WORKERS: "in-process" } });
  worker = w;
  stub.scriptChatWhen(/most salient high-level questions/, ["1. Why?\n2. Who?\n3. What?"]);
  w.system.jobs.startWorkers();
  await waitForStatus(w, deliveryId, "processed", 30_000);
  await waitFor("a reflection run", async () => {
    const res = await w.call("GET", `/v1/agents/${agent}/reflections/runs`);
    const runs = ((await res.json()) as { runs: { status: string }[] }).runs;
    return runs.some((r) => r.status !== "running");
  });
  await w.call("DELETE", `/v1/agents/${agent}`);
  await w.call("DELETE", `/v1/agents/${encodeURIComponent(`github:${repo}`)}`);
}, 120_000);
