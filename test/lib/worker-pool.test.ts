import { afterEach, describe, expect, it } from "vitest";
import { DomainError } from "../../src/lib/errors";
import {
  PoolBusy,
  TaskFailed,
  WorkerFailed,
  WorkerPool,
  type WorkerPoolOptions,
  WorkTimeout,
} from "../../src/lib/worker-pool/pool";
import { processThreads } from "../support/threads";
import type { sampleTasks } from "./fixtures/sample.worker";

// The pool with real threads running a real worker module (TypeScript, loaded through tsx as in
// `npm run dev`; the bundled form runs in test/ops/image.test.ts).
const pools: WorkerPool<typeof sampleTasks>[] = [];
const pool = (o: Partial<WorkerPoolOptions> = {}) => {
  const p = new WorkerPool<typeof sampleTasks>({
    name: "sample",
    entry: "test/lib/fixtures/sample.worker.ts",
    size: 1,
    timeoutMs: 10_000,
    maxQueue: 8,
    ...o,
  });
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe("WorkerPool", () => {
  it("runs a task in another thread and returns its output (a transferred buffer included)", async () => {
    const p = pool();
    const bytes = new Uint8Array(1024);
    expect(await p.run("echo", { text: "hi", bytes }, { transfer: [bytes.buffer] })).toEqual({
      text: "HI",
      n: 1024,
    });
    expect(bytes.byteLength).toBe(0); // moved, not copied
    expect(await p.run("thread", undefined as never)).not.toBe(0); // not the main thread (id 0)
  });

  it("gives a task's DomainError back as one (code, message, details) and other errors by message", async () => {
    const p = pool();
    const err = await p.run("invalid", { field: "metadata" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({
      code: "invalid_request",
      message: "metadata is too deep",
      details: { limit: 32 },
    });
    const plain = await p.run("fail", undefined as never).catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(TaskFailed);
    expect(plain).toMatchObject({ name: "TypeError", message: "plain failure" });
    // The thread survives a task's error.
    expect(await p.run("echo", { text: "still" })).toMatchObject({ text: "STILL" });
  });

  it("sets each thread up as asked (its OS name, a nice value) and tells a failed set-up once, at debug", async () => {
    const p = pool({ size: 2, thread: { name: "sample-nice", nice: 7 } });
    await p.warm();
    // Each thread, and under tsx the loader-hooks thread it started first (which inherits both).
    const niced = processThreads().filter((t) => t.name === "sample-nice");
    expect(niced.length).toBeGreaterThanOrEqual(2);
    expect(niced.map((t) => t.nice)).toEqual(niced.map(() => 7));
    const told: Record<string, unknown>[] = [];
    // Out of range, so setPriority throws: the threads serve anyway, the pool says it once.
    const failing = pool({
      size: 2,
      thread: { nice: 20 },
      logger: { debug: (_msg, fields) => void told.push(fields ?? {}) },
    });
    await failing.warm();
    expect(await failing.run("echo", { text: "served" })).toMatchObject({ text: "SERVED" });
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ pool: "sample", reason: expect.stringMatching(/range/) });
  });

  it("ends a task past its budget by terminating its thread, and serves the next task on a new one", async () => {
    const p = pool({ timeoutMs: 300 });
    const first = await p.run("thread", undefined as never);
    const started = Date.now();
    await expect(p.run("spin", { ms: 60_000 })).rejects.toBeInstanceOf(WorkTimeout);
    expect(Date.now() - started).toBeLessThan(5_000);
    const second = await p.run("thread", undefined as never);
    expect(second).not.toBe(first);
    expect(p.threads).toBe(1);
  });

  it("keeps the event loop free while a thread works", async () => {
    const p = pool();
    const work = p.run("spin", { ms: 800 });
    // Ticks of the main thread's loop during the task: a blocked loop would give none.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    await work;
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(10);
  });

  it("queues beyond its threads, runs them all, and refuses at once past maxQueue", async () => {
    const p = pool({ size: 2, maxQueue: 3 });
    // Both threads started (a task waits in the queue while its thread loads).
    await p.warm();
    expect(p.threads).toBe(2);
    const running = [1, 2, 3, 4, 5].map(() => p.run("spin", { ms: 300 }));
    // Two run at once, three wait; the sixth finds the queue full.
    await expect(p.run("echo", { text: "x" })).rejects.toBeInstanceOf(PoolBusy);
    expect(await Promise.all(running)).toEqual([true, true, true, true, true]);
    expect(p.threads).toBe(2);
  });

  it("fails only the task whose thread runs out of its heap cap", async () => {
    const p = pool({ resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 } });
    const err = await p.run("hog", undefined as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerFailed);
    expect((err as WorkerFailed).reason).toBe("memory");
    expect(await p.run("echo", { text: "after" })).toMatchObject({ text: "AFTER" });
  });

  it("fails a task whose worker module cannot load, without retrying forever", async () => {
    const p = pool({ entry: "test/lib/fixtures/missing.worker.ts" });
    const err = await p.run("echo", { text: "x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerFailed);
    expect(p.threads).toBe(0);
  });

  it("rejects what is queued or running when it closes, and everything after", async () => {
    const p = pool();
    const running = p.run("spin", { ms: 60_000 }).catch((e: unknown) => e);
    const waiting = p.run("echo", { text: "x" }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    await p.close();
    expect(await running).toBeInstanceOf(WorkerFailed);
    expect(await waiting).toBeInstanceOf(WorkerFailed);
    await expect(p.run("echo", { text: "x" })).rejects.toBeInstanceOf(WorkerFailed);
    expect(p.threads).toBe(0);
  });
});
