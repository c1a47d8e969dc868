import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOfflineEmbedder } from "../../src/providers/offline-embedder.js";

// The offline model in worker threads: the same vectors as on the caller's thread, and
// the caller's event loop keeps turning while a batch is embedded.

const inline = await createOfflineEmbedder({ threads: 0 });
const threaded = await createOfflineEmbedder({ threads: 1 });
beforeAll(async () => {
  await Promise.all([
    inline.embed(["warm up"]),
    threaded.embed(["warm up"]),
    threaded.embed(Array(9).fill("warm")),
  ]);
});
afterAll(() => threaded.close());

const texts = Array.from(
  { length: 96 },
  (_, i) => `memory ${i}: ${i % 3 ? "we moved to Berlin in May" : "the build failed again"}`,
);

/** Event-loop turns (setImmediate) counted while `work` runs, and its result. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ turns: number; result: T }> {
  let turns = 0;
  let done = false;
  const spin = () => {
    if (done) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const result = await work();
  done = true;
  return { turns, result };
}

describe("offline embedder in worker threads", () => {
  it("gives the vectors the model gives on the caller's thread, queries and batches alike", async () => {
    expect(await threaded.embed(texts)).toEqual(await inline.embed(texts));
    expect(await threaded.embed(["where did we move?", ""])).toEqual(
      await inline.embed(["where did we move?", ""]),
    );
  });

  it("leaves the event loop free while a batch is embedded", async () => {
    const away = await turnsDuring(() => threaded.embed(texts));
    const here = await turnsDuring(() => inline.embed(texts));
    expect(away.result).toEqual(here.result);
    // On the caller's thread each forward pass holds the loop (two passes: a handful of turns);
    // in a thread the loop turns thousands of times meanwhile.
    expect(away.turns).toBeGreaterThan(50 * Math.max(1, here.turns));
  });
});
