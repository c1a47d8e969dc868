import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import {
  allReady,
  obliterateQueues,
  pipelineEnv,
  postMany,
  startPipeline,
  stats,
  waitFor,
} from "../jobs/support";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import type { TestSystem } from "../support/system";

// Recovery: the database is the source of truth, so a killed worker or a flushed queue loses nothing.
let cleanup: (() => Promise<void>) | null = null;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
  await cleanup?.();
  cleanup = null;
});

/** `npm run worker` as a child process (the real entry), against this test's stub and queues. */
function spawnWorker(t: TestSystem, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "src/worker.ts"], {
    env: {
      PATH: process.env.PATH ?? "",
      DATABASE_URL: t.system.config.databaseUrl ?? TEST_DATABASE_URL,
      OPENAI_BASE_URL: t.stub.url,
      OPENAI_API_KEY: "test",
      EMBEDDING_PROVIDER: "openai",
      EMBEDDING_MODEL: "stub-embed",
      EMBEDDING_DIMENSIONS: "64",
      OPENAI_MAX_RETRIES: "0",
      MEMSTREAM_LOG_LEVEL: "error",
      MEMSTREAM_WORKER_METRICS_PORT: "0",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  return child;
}

describe("recovery", () => {
  it("finishes every memory after the worker is killed mid-batch and restarted", async () => {
    const env = { ...pipelineEnv(), EMBEDDING_BATCH_SIZE: "50" };
    const p = await startPipeline(env);
    const agent = uniq("crash");
    cleanup = () => p.close([agent]);
    const { t } = p;
    t.stub.setMode({ kind: "slow", ms: 20 });
    await postMany(t, agent, 500);

    const first = spawnWorker(t, env);
    await waitFor(
      "some but not all ready",
      async () => {
        const s = await stats(t, agent);
        return s.importance.ready > 50;
      },
      30_000,
    );
    first.kill("SIGKILL");
    await once(first, "exit");
    const mid = await stats(t, agent);
    expect(mid.importance.ready).toBeLessThan(500);

    spawnWorker(t, env);
    const s = await allReady(t, agent, 500, 60_000);
    expect(s.importance.failed + s.embedding.failed).toBe(0);
    // Claims kept the second worker from paying again for rows the first had finished.
    expect(t.stub.calls.chat).toBeLessThan(500 + 2 * 4 * 2);
  }, 90_000);

  it("shuts a worker down cleanly on SIGTERM mid-batch; the next worker finishes the rest", async () => {
    const env = { ...pipelineEnv(), EMBEDDING_BATCH_SIZE: "50" };
    const p = await startPipeline(env);
    const agent = uniq("sigterm");
    cleanup = () => p.close([agent]);
    const { t } = p;
    t.stub.setMode({ kind: "slow", ms: 20 });
    await postMany(t, agent, 300);

    const first = spawnWorker(t, env);
    await waitFor("some ready", async () => (await stats(t, agent)).importance.ready > 30, 30_000);
    const stoppedAt = Date.now();
    first.kill("SIGTERM");
    const [code] = (await once(first, "exit")) as [number | null];
    expect(code).toBe(0); // drained the jobs in hand and closed its connections
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    const mid = await stats(t, agent);
    expect(mid.importance.ready).toBeLessThan(300);

    spawnWorker(t, env);
    const s = await allReady(t, agent, 300, 60_000);
    expect(s.importance.failed + s.embedding.failed).toBe(0);
  }, 90_000);

  it("recovers a queue flushed mid-batch through the sweep", async () => {
    const own = await ownDatabase("flush");
    const p = await startPipeline({ MEMSTREAM_SWEEP_AFTER_MS: "300", DATABASE_URL: own.url });
    const agent = uniq("flush");
    cleanup = () => p.close([agent]).finally(own.drop);
    const { t } = p;
    t.stub.setMode({ kind: "slow", ms: 20 });
    await postMany(t, agent, 300);
    t.system.jobs.startWorkers();
    await waitFor("some ready", async () => (await stats(t, agent)).importance.ready > 20);
    await obliterateQueues(p.prefix);
    const s = await allReady(t, agent, 300, 60_000);
    expect(s.importance.failed + s.embedding.failed).toBe(0);
  }, 90_000);

  it("enqueues nothing while Redis is unreachable, and the sweep fills the memories in later", async () => {
    const own = await ownDatabase("noredis");
    const dead = await startPipeline({
      REDIS_URL: "redis://127.0.0.1:1",
      MEMSTREAM_SWEEP_AFTER_MS: "0",
      DATABASE_URL: own.url,
    });
    const agent = uniq("noredis");
    const started = Date.now();
    await postMany(dead.t, agent, 5);
    // The POST does not wait for Redis: its announcement fails fast and logs.
    expect(Date.now() - started).toBeLessThan(2_000);
    await dead.t.close();

    const p = await startPipeline({ MEMSTREAM_SWEEP_AFTER_MS: "0", DATABASE_URL: own.url });
    cleanup = () => p.close([agent]).finally(own.drop);
    p.t.system.jobs.startWorkers();
    await allReady(p.t, agent, 5);
  });
});
