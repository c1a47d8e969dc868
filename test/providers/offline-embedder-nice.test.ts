import { getPriority } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { createOfflineEmbedder, DEFAULT_EMBED_BATCH_NICE } from "../../src/providers/offline-embedder.js";
import { processThreads } from "../support/threads";

// The batch threads run at a low CPU priority (DEFAULT_EMBED_BATCH_NICE) and the query threads at the process's own
// (on two cores a backlog's batches delayed a POST of 250 to 200 ms at p99). Linux only,
// as the priority is: the thread names and nice values are read from /proc/self/task.

const embedder = await createOfflineEmbedder({ threads: 1 });
afterAll(() => embedder.close());

describe("offline embedder thread priorities", () => {
  // The process's own nice value: the test may run under `nice`.
  const base = getPriority();
  it.skipIf(base > DEFAULT_EMBED_BATCH_NICE)(
    "runs batches in threads at the batch nice value (and any thread those start) and queries at the process's",
    async () => {
      await Promise.all([embedder.embed(Array(9).fill("a batch")), embedder.embed(["a query"])]);
      const threads = processThreads();
      const nices = (name: string) => threads.filter((t) => t.name === name).map((t) => t.nice);
      const batch = nices("embed-batch");
      const query = nices("embed-query");
      // One thread each, and under tsx the loader-hooks thread each started (it inherits the set-up).
      expect(batch.length).toBeGreaterThan(0);
      expect(batch).toEqual(batch.map(() => DEFAULT_EMBED_BATCH_NICE));
      expect(query.length).toBeGreaterThan(0);
      expect(query).toEqual(query.map(() => base));
      // Nothing else was reniced: the test's own thread and the rest keep the process's priority.
      const others = threads.filter((t) => !t.name.startsWith("embed-")).map((t) => t.nice);
      expect(others).toEqual(others.map(() => base));
    },
  );
});
