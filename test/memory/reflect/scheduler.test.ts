import { describe, expect, it } from "vitest";
import { silentLogger } from "../../../src/lib/logger";
import { createInProcessReflectionScheduler } from "../../../src/memory/reflect/scheduler";

/** A check that stays open until released, recording when it ran. */
function gatedCheck() {
  const calls: string[] = [];
  let release: () => void = () => {};
  let gate = new Promise<void>((r) => (release = r));
  return {
    calls,
    release() {
      release();
      gate = new Promise<void>((r) => (release = r));
    },
    check: async (agentId: string) => {
      calls.push(agentId);
      await gate;
    },
  };
}

describe("in-process reflection scheduler", () => {
  it("runs one check per agent at a time and collapses announcements during it into one re-check", async () => {
    const g = gatedCheck();
    const s = createInProcessReflectionScheduler(g.check, silentLogger);
    await s.importanceAdded("a");
    await s.importanceAdded("a");
    await s.importanceAdded("a");
    await s.importanceAdded("b");
    expect(g.calls).toEqual(["a", "b"]);
    g.release();
    await new Promise((r) => setImmediate(r));
    expect(g.calls).toEqual(["a", "b", "a"]);
    g.release();
    await s.idle();
    expect(g.calls).toEqual(["a", "b", "a"]);
  });

  it("logs a failing check and keeps scheduling", async () => {
    const errors: string[] = [];
    const s = createInProcessReflectionScheduler(
      async () => {
        throw new Error("boom");
      },
      { ...silentLogger, error: (msg) => void errors.push(msg) },
    );
    await s.importanceAdded("a");
    await s.idle();
    await s.importanceAdded("a");
    await s.idle();
    expect(errors).toEqual(["threshold reflection failed", "threshold reflection failed"]);
  });
});
