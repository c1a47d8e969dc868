import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, queryRows } from "../../src/db/client";
import { exactStatement, type ScoredRow } from "../../src/memory/retrieve/execute";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import { type Case, requestOf, storeCase } from "../support/ranking-cases";
import { formOf, referenceRanking } from "../support/reference-ranking";

// Windowed relevance's question form comes from the agent's 2,000 newest memories (README). The
// agreement test's streams hold at most 60, so this one case holds 2,030: the 30 oldest all ask
// and point elsewhere, so a direction taken over every memory differs from the newest 2,000's,
// and the statement must rank as the reference does with the bound.

const MODEL = uniq("form-sample-3d");
let database: Database;
beforeAll(async () => {
  database = await openDatabase({ url: TEST_DATABASE_URL, dataDir: "", poolSize: 2 });
});
afterAll(() => database.close());

const GRID = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
  [1, 1, 0],
  [0, 1, 1],
  [1, 0, 1],
  [2, 1, 0],
  [0, 2, 1],
  [1, -1, 2],
];

function sampleCase(): Case {
  const stream = Array.from({ length: 2_030 }, (_, i) => {
    const oldAsker = i < 30;
    const asks = oldAsker || i % 3 === 0;
    return {
      kind: "observation" as const,
      created: i,
      accessedAfter: 0,
      importance: 5,
      vector: { stored: oldAsker ? [2, -2, 1] : (GRID[i % GRID.length] as number[]) },
      words: [["cat", "dog", "moon", "tree"][i % 4] as string],
      tag: null,
      replacedAfter: null,
      asks: asks ? "?" : "",
    };
  });
  return {
    stream,
    step: 60,
    unit: "hour",
    decay: 0.99,
    now: 2_100,
    weights: { recency: 0, importance: 0, relevance: 1 },
    relevance: "windowed",
    vectorShare: 0.6,
    query: [1, 1, 1],
    text: ["cat"],
    k: 20,
    filters: {},
    narrow: false,
    window: null,
    sections: null,
    listSize: 4,
    mostRelevant: 2,
    depth: { relevance: 2, recImp: 4 },
    scaleFloors: false,
    lift: null,
    asOf: null,
  } as unknown as Case;
}

describe("windowed relevance's question form, from the newest memories", () => {
  it("ranks a 2,030-memory stream as the reference does with the 2,000 bound", async () => {
    const c = sampleCase();
    const agent = uniq("form-sample");
    const memories = await storeCase(database.db, agent, c, MODEL, uniq("form-other"));
    const { params, ref } = requestOf(c, agent, MODEL);
    // The bound matters here: the direction over every memory is another one.
    const newest = formOf(memories) as number[];
    const every = formOf(memories, Number.POSITIVE_INFINITY) as number[];
    expect(Math.max(...newest.map((x, i) => Math.abs(x - (every[i] as number))))).toBeGreaterThan(1e-3);
    const rows = await database.db.transaction((tx) =>
      queryRows<ScoredRow>(tx, exactStatement({ statement: "full", reason: "", workers: false }, params)),
    );
    const want = referenceRanking(memories, ref).slice(0, c.k);
    expect(rows.map((r) => r.id)).toEqual(want.map((h) => h.id));
    rows.forEach((r, i) => {
      expect(Math.abs(Number(r.score) - (want[i]?.score ?? Number.NaN))).toBeLessThanOrEqual(1e-6);
    });
  }, 60_000);
});
