import { afterAll, describe, expect, it } from "vitest";
import { createOfflineEmbedder } from "../../src/providers/offline-embedder.js";
import { processThreads } from "../support/threads";

// The batch threads run at the lowest CPU priority and the query threads at the process's own
// (issue 27: on two cores a backlog's batches delayed a POST of 250 to 200 ms at p99). Linux only,
// as the priority is: the thread names and nice values are read from /proc/self/task.

const embedder = await createOfflineEmbedder({ threads: 1 });
afterAll(() => embedder.close());

describe("offline embedder thread priorities", () => {
  it("runs batches in threads at nice 19 (and any thread those start) and queries at 0", async () => {
    await Promise.all([embedder.embed(Array(9).fill("a batch")), embedder.embed(["a query"])]);
    const threads = processThreads();
    const nices = (name: string) => threads.filter((t) => t.name === name).map((t) => t.nice);
    const batch = nices("embed-batch");
    const query = nices("embed-query");
    // One thread each, and under tsx the loader-hooks thread each started (it inherits the set-up).
    expect(batch.length).toBeGreaterThan(0);
    expect(batch).toEqual(batch.map(() => 19));
    expect(query.length).toBeGreaterThan(0);
    expect(query).toEqual(query.map(() => 0));
    // Nothing else was reniced: the test's own thread and the rest keep the process's priority.
    const others = threads.filter((t) => !t.name.startsWith("embed-")).map((t) => t.nice);
    expect(others).toEqual(others.map(() => 0));
  });
});
