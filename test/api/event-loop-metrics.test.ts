import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetrics } from "../../src/metrics";
import { startTestSystem, type TestSystem } from "../support/system";
import { until } from "../support/until";

// memstream_event_loop_delay_seconds in /metrics: a stall of the API's thread shows as an
// observation of its size, so the next freeze names itself.
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({
    env: { MEMSTREAM_ADMIN_KEYS: "ops-key" },
    metrics: createMetrics({ defaultMetrics: false, eventLoop: true }),
  });
});
afterAll(() => t.close());

const NAME = "memstream_event_loop_delay_seconds";

/** Observations of the histogram, and those over 0.25 s, from the exposition text. */
async function scrape(): Promise<{ count: number; under25ms: number; over250ms: number }> {
  const res = await t.app.request("/metrics", { headers: { authorization: "Bearer ops-key" } });
  expect(res.status).toBe(200);
  const text = await res.text();
  const value = (series: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `));
    if (!line) throw new Error(`no ${series} in /metrics`);
    return Number(line.slice(series.length + 1));
  };
  const count = value(`${NAME}_count`);
  return {
    count,
    under25ms: value(`${NAME}_bucket{le="0.025"}`),
    over250ms: count - value(`${NAME}_bucket{le="0.25"}`),
  };
}

describe("event-loop delay in /metrics", () => {
  it("is sampled while the loop is free and records a 400 ms block as one stall over 250 ms", async () => {
    // A free loop's samples are a few ms late at most (in seconds, not milliseconds).
    const first = await until("samples", async () => {
      const s = await scrape();
      return s.under25ms > 0 ? s : null;
    });
    const until400 = performance.now() + 400;
    while (performance.now() < until400) {
      // Busy: nothing else runs on this thread meanwhile, as when a statement ran on it.
    }
    const after = await until("the stall's sample", async () => {
      const s = await scrape();
      return s.count > first.count ? s : null;
    });
    // At least: on a busy machine the thread may also have waited for a core meanwhile.
    expect(after.over250ms).toBeGreaterThanOrEqual(first.over250ms + 1);
  });
});
