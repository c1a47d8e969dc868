import { afterAll, describe, expect, it } from "vitest";
import { createOfflineEmbedder } from "../../src/providers/offline-embedder.js";
import { processThreads } from "../support/threads";

// The batch threads run at the lowest CPU priority and the query threads at the process's own
// (issue 27: on two cores a backlog's batches delayed a POST of 250 to 200 ms at p99). Linux only,
// as the priority is: the thread names and nice values are read from /proc/self/task.

const embedder = await createOfflineEmbedder({ threads: 1 });
afterAll(() => embedder.close());

describe("offline embedder thread priorities", () => {
  it("runs batches in threads at nice 19 (those the model's runtime starts too) and queries at 0", async () => {
    await Promise.all([embedder.embed(Array(9).fill("a batch")), embedder.embed(["a query"])]);
    const threads = processThreads();
    const of = (name: string) => threads.filter((t) => t.name === name).map((t) => t.nice);
    expect(of("embed-batch").length).toBeGreaterThan(0);
    expect(of("embed-batch").every((n) => n === 19)).toBe(true);
    expect(of("embed-query").length).toBeGreaterThan(0);
    expect(of("embed-query").every((n) => n === 0)).toBe(true);
    // Nothing else was reniced: the test's own thread and the rest keep the process's priority.
    expect(threads.filter((t) => !t.name.startsWith("embed-")).every((t) => t.nice === 0)).toBe(true);
  });
});
