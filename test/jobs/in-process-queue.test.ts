import { describe, expect, it } from "vitest";
import { jobRequest } from "../../src/jobs/catalog";
import { createInProcessQueue } from "../../src/jobs/in-process";
import { createLogger } from "../../src/lib/logger";

// The zero-config queue on its own: what it runs, and when.
const queue = () =>
  createInProcessQueue({ concurrency: 2, attempts: () => 3, backoffMs: 5, logger: createLogger("error") });
const consolidate = (agentId: string) => jobRequest("outcomes.consolidate", { agentId, taskType: "deploy" });

describe("in-process queue", () => {
  it("runs a job enqueued while it runs once more afterwards, and one queued twice once", async () => {
    const q = queue();
    const runs: string[] = [];
    let release!: () => void;
    const firstRunHolds = new Promise<void>((r) => (release = r));
    q.start(async (job) => {
      runs.push(job.id);
      if (runs.length === 1) await firstRunHolds;
    });
    await q.enqueue([consolidate("a")]);
    expect(runs).toHaveLength(1); // running, held
    // The write that happens while the run finishes: with BullMQ's rule it would be dropped.
    await q.enqueue([consolidate("a")]);
    await q.enqueue([consolidate("a")]);
    release();
    await q.idle();
    expect(runs).toEqual([consolidate("a").id, consolidate("a").id]);
    await q.close();
  });

  it("retries a failing job, and a retry covers an enqueue made during the failed attempt", async () => {
    const q = queue();
    let attempts = 0;
    q.start(async () => {
      attempts++;
      if (attempts === 1) {
        await q.enqueue([consolidate("b")]);
        throw new Error("provider down");
      }
    });
    await q.enqueue([consolidate("b")]);
    await q.idle();
    expect(attempts).toBe(2);
    await q.close();
  });
});
