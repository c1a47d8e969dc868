import { describe, expect, it } from "vitest";
import { Invalid } from "../../src/lib/errors";
import type { HnswIndex } from "../../src/memory/retrieve/hnsw-index";
import { type FastState, type PlanRequest, plan, type StreamState } from "../../src/memory/retrieve/plan";
import { PHASE_SIZES, SMALL_PHASE_SIZES } from "../../src/memory/retrieve/statements/phased";

// The planner alone: which statement each request gets, why, and what mode fast refuses. That
// every statement it picks ranks by the formula is the agreement test's (ranking-agreement.test.ts).

const INDEX: HnswIndex = { model: "m", dimensions: 2, storage: "vector" };
const THRESHOLDS = { minStream: 20_000, minShare: 0.05 };
const base: PlanRequest = {
  query: { vector: "[1,0]", model: "m", dimensions: 2 },
  filters: {},
  timeWindow: null,
  weights: { recency: 1, importance: 1, relevance: 1 },
  mode: "auto",
};
const WHOLE: StreamState = { small: false, large: false };
const LARGE: StreamState = { small: false, large: true };
const fastState = (over: Partial<FastState> = {}): StreamState => ({
  ...WHOLE,
  fast: { index: INDEX, vectors: 20_000, indexed: 100_000, ...over },
});
const choose = (r: Partial<PlanRequest>, state: StreamState = WHOLE) =>
  plan({ ...base, ...r }, state, THRESHOLDS);

describe("plan: the exact statements", () => {
  it.each([
    ["a whole stream by vector relevance", {}, WHOLE, "threshold", /whole stream of 3,300\+/],
    ["a stream under 3,300 memories", {}, { small: true, large: false }, "full", /under 3,300/],
    ["filters", { filters: { kinds: ["observation"] } }, WHOLE, "full", /filters/],
    ["a time window", { timeWindow: { start: new Date(0), end: new Date(1) } }, WHOLE, "full", /time window/],
    ["no query vector", { query: null }, WHOLE, "full", /no query vector/],
    [
      "a negative weight",
      { weights: { recency: -1, importance: 1, relevance: 1 } },
      WHOLE,
      "full",
      /negative/,
    ],
    ["lexical relevance", { lexical: { kind: "lexical", text: "x" } }, WHOLE, "full", /relevance lexical/],
    [
      "contextual relevance (the default's) over a large whole stream",
      { lexical: { kind: "contextual", text: "x" } },
      LARGE,
      "fused",
      /relevance contextual over a whole stream of 50,000\+ memories: .*GIN index/,
    ],
    [
      "hybrid relevance over a large whole stream",
      { lexical: { kind: "hybrid", text: "x" } },
      LARGE,
      "fused",
      /hybrid/,
    ],
    [
      "contextual relevance over a stream under 50,000 memories",
      { lexical: { kind: "contextual", text: "x" } },
      WHOLE,
      "full",
      /relevance contextual: every memory scored/,
    ],
    [
      "contextual relevance and a time window",
      { lexical: { kind: "contextual", text: "x" }, timeWindow: { start: new Date(0), end: new Date(1) } },
      LARGE,
      "full",
      /time window/,
    ],
    [
      "contextual relevance without a query vector",
      { lexical: { kind: "contextual", text: "x" }, query: null },
      LARGE,
      "full",
      /every memory scored/,
    ],
    [
      "contextual relevance and a negative weight",
      { lexical: { kind: "contextual", text: "x" }, weights: { recency: -1, importance: 1, relevance: 1 } },
      LARGE,
      "full",
      /every memory scored/,
    ],
    [
      "windowed relevance (BM25F needs every memory's length)",
      { lexical: { kind: "windowed", text: "x" } },
      LARGE,
      "full",
      /relevance windowed/,
    ],
    ["sections", { sections: [{ kinds: null, k: 3 }] }, WHOLE, "sections", /sections/],
  ] as const)("%s", (_, r, state, statement, reason) => {
    const p = choose(r as Partial<PlanRequest>, state);
    expect(p.statement).toBe(statement);
    expect(p.reason).toMatch(reason);
  });

  it("gives workers to the threshold statement and to fused relevance over a large stream only", () => {
    expect(choose({}).workers).toBe(true);
    const fused = { lexical: { kind: "contextual", text: "x" } } as const;
    expect(choose(fused, { small: false, large: true })).toMatchObject({ statement: "fused", workers: true });
    expect(choose(fused, WHOLE).workers).toBe(false);
    const windowed = { lexical: { kind: "windowed", text: "x" } } as const;
    expect(choose(windowed, { small: false, large: true })).toMatchObject({
      statement: "full",
      workers: true,
    });
    expect(choose({ ...fused, query: null }, { small: false, large: true }).workers).toBe(false);
  });
});

describe("plan: mode fast", () => {
  it("searches a stream past both thresholds, with the exact plan as its fallback", () => {
    const p = choose({ mode: "fast" }, fastState());
    expect(p).toMatchObject({ statement: "fast", index: INDEX, fallback: { statement: "threshold" } });
    expect(p.reason).toMatch(/^mode fast: threshold search/);
  });

  it("ranks a small stream exactly, index or not, and says why", () => {
    for (const index of [INDEX, null]) {
      const p = choose({ mode: "fast" }, fastState({ index, vectors: 19_999 }));
      expect(p.statement).toBe("threshold");
      expect(p.reason).toMatch(/^mode fast, stream under 20,000 vectors .*MEMSTREAM_FAST_MIN_STREAM/);
    }
  });

  it("ranks a stream under the index share exactly", () => {
    const p = choose({ mode: "fast" }, fastState({ vectors: 20_000, indexed: 1_000_000 }));
    expect(p.statement).toBe("threshold");
    expect(p.reason).toMatch(/MEMSTREAM_FAST_MIN_SHARE/);
  });

  it.each([
    ["word relevance", { lexical: { kind: "hybrid", text: "x" } }, fastState(), /relevance vector/],
    ["sections", { sections: [{ kinds: null, k: 3 }] }, fastState(), /sections/],
    ["filters", { filters: { since: "2026-01-01T00:00:00Z" } }, fastState(), /filters/],
    ["no index on a stream large enough", {}, fastState({ index: null }), /needs an HNSW index/],
  ] as const)("refuses %s with a 400 naming mode", (_, r, state, message) => {
    const run = () => choose({ ...(r as Partial<PlanRequest>), mode: "fast" }, state);
    expect(run).toThrow(Invalid);
    expect(run).toThrow(message);
  });
});

describe("plan: in phases (mode auto)", () => {
  const words = { lexical: { kind: "contextual" as const, text: "where does alice live" } };
  const indexed: StreamState = { ...WHOLE, index: INDEX };
  const unindexed: StreamState = { ...WHOLE, index: null };
  it("ranks the default's contextual (and hybrid) relevance in phases, over the index or a scan", () => {
    const p = choose(words, indexed);
    expect(p.statement).toBe("phased");
    expect(p.reason).toMatch(/HNSW/);
    expect(choose({ lexical: { kind: "hybrid", text: "x" } }, unindexed)).toMatchObject({
      statement: "phased",
      index: null,
      reason: expect.stringMatching(/scan of the agent's vectors/),
    });
    // Fewer seeds for a stream the statistics put under 20,000 memories; unknown counts as large.
    expect(choose(words, { ...indexed, rows: 10_000 })).toMatchObject({ sizes: SMALL_PHASE_SIZES });
    expect(choose(words, { ...indexed, rows: 50_000 })).toMatchObject({ sizes: PHASE_SIZES });
    expect(choose(words, { ...indexed, rows: null })).toMatchObject({ sizes: PHASE_SIZES });
    // A version lift and a time window stay in phases: both are steps of its second phase.
    expect(choose({ ...words, lift: "newer" }, indexed).statement).toBe("phased");
    expect(
      choose({ ...words, timeWindow: { start: new Date(0), end: new Date(1) } }, indexed).statement,
    ).toBe("phased");
  });
  it.each([
    ["mode exact", { ...words, mode: "exact" as const }, WHOLE],
    ["a small stream", words, { small: true, large: false, index: INDEX }],
    ["filters", { ...words, filters: { kinds: ["observation" as const] } }, { ...WHOLE, index: INDEX }],
    ["vector relevance", {}, { ...WHOLE, index: INDEX }],
    ["windowed relevance", { lexical: { kind: "windowed" as const, text: "x" } }, { ...WHOLE, index: INDEX }],
    ["no query vector", { ...words, query: null }, { ...WHOLE, index: INDEX }],
    [
      "a negative weight",
      { ...words, weights: { recency: -1, importance: 1, relevance: 1 } },
      { ...WHOLE, index: INDEX },
    ],
    ["no index state read", words, WHOLE],
  ])("ranks exactly with %s", (_, r, state) => {
    expect(choose(r as Partial<PlanRequest>, state as StreamState).statement).not.toBe("phased");
  });
});
