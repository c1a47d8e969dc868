import { afterEach, describe, expect, it } from "vitest";
import { obliterateQueues, pipelineEnv } from "../jobs/support";
import { TEST_REDIS_URL, uniq } from "../support/env";
import { childEnv, type Spawned, spawnEntry } from "../support/spawn";
import { type Stub, startStubOpenAI } from "../support/stub-openai";

// Bounded shutdown on the real entry points: after SIGTERM a process that cannot finish what it
// holds (the model stub never answers) exits 1 with a log line once MEMSTREAM_SHUTDOWN_MS passes.
const spawned: Spawned[] = [];
let stub: Stub | null = null;
let release: (() => void) | null = null;
const prefixes: string[] = [];
afterEach(async () => {
  for (const s of spawned.splice(0)) if (s.child.exitCode === null) s.child.kill("SIGKILL");
  release?.();
  await stub?.close();
  stub = null;
  release = null;
  for (const p of prefixes.splice(0)) await obliterateQueues(p);
});

const DEADLINE_MS = 1500;

describe("bounded shutdown", () => {
  it("a worker stuck in a job exits 1 with a log line at the deadline", async () => {
    stub = await startStubOpenAI();
    const prefix = uniq("mst");
    prefixes.push(prefix);
    const env = { ...pipelineEnv(prefix), MEMSTREAM_SHUTDOWN_MS: String(DEADLINE_MS) };
    const hold = stub.holdNextChat(/rate the likely poignancy/);
    release = hold.release;
    const api = spawnEntry("src/server.ts", childEnv(stub, { ...env, MEMSTREAM_WORKERS: "off", PORT: "0" }));
    spawned.push(api);
    const url = String((await api.waitForLog(/^listening$/)).url);
    const agent = uniq("shutdown");
    const post = await fetch(`${url}/v1/agents/${agent}/memories`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "the deploy failed" }),
    });
    expect(post.status).toBe(201);

    const worker = spawnEntry("src/worker.ts", childEnv(stub, env));
    spawned.push(worker);
    await hold.arrived; // the worker holds a memories.score job whose LLM call never returns
    const stoppedAt = Date.now();
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(1);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(DEADLINE_MS);
    expect(worker.logs.map((l) => l.msg)).toContain(
      "shutdown deadline passed; exiting with work still in hand",
    );

    // The API has nothing in flight: it shuts down cleanly.
    api.child.kill("SIGTERM");
    expect(await api.exited).toBe(0);
    expect(api.logs.map((l) => l.msg)).toContain("shut down cleanly");
  }, 120_000);

  it("the API with a request in flight that never ends exits 1 with a log line at the deadline", async () => {
    stub = await startStubOpenAI();
    const hold = stub.holdNextChat(/most salient high-level questions/);
    release = hold.release;
    const api = spawnEntry(
      "src/server.ts",
      childEnv(stub, {
        LLM_MODEL: "stub-chat",
        MEMSTREAM_WORKERS: "off",
        REDIS_URL: TEST_REDIS_URL,
        MEMSTREAM_QUEUE_PREFIX: uniq("mst"),
        MEMSTREAM_SHUTDOWN_MS: String(DEADLINE_MS),
        PORT: "0",
      }),
    );
    spawned.push(api);
    const url = String((await api.waitForLog(/^listening$/)).url);
    const agent = uniq("shutdown-api");
    await fetch(`${url}/v1/agents/${agent}/memories`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "the deploy failed", importance: 3 }),
    });
    // POST /reflect runs in the request: it waits on the held LLM call.
    const inFlight = fetch(`${url}/v1/agents/${agent}/reflect`, { method: "POST" }).catch((e: unknown) => e);
    await hold.arrived;
    api.child.kill("SIGTERM");
    expect(await api.exited).toBe(1);
    expect(api.logs.map((l) => l.msg)).toContain("shutdown deadline passed; exiting with work still in hand");
    expect(await inFlight).toBeInstanceOf(Error); // the connection died with the process
  }, 120_000);

  it("an unhandled rejection is logged and exits 1", async () => {
    const child = spawnEntry("test/support/fixtures/unhandled-rejection.ts", {
      PATH: process.env.PATH ?? "",
    });
    spawned.push(child);
    expect(await child.exited).toBe(1);
    const line = child.logs.find((l) => l.msg === "unhandled promise rejection; exiting");
    expect(String(line?.error)).toMatch(/nobody caught this/);
  });
});
