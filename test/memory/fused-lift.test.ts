import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { exactStatement, runPlan, type ScoredRow } from "../../src/memory/retrieve/execute";
import type { RankParams } from "../../src/memory/retrieve/statements/params";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// The fused statement lifts versions (docs/adr/0028, plan.ts): a superseded
// memory among the best hands its score to its replacement even when the replacement scores so
// low that the pruning left it out of the statement's candidates; the answer equals the full
// statement's, which scores every memory. The agreement test covers random streams; this case
// makes the replacement's absence from the pruned candidates certain.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

const DIMS = 64;
const vec = (axis: number) => Array.from({ length: DIMS }, (_, i) => (i === axis ? 1 : 0));

describe("the fused statement with a version lift", () => {
  it("finds a replacement the pruning left out and ranks it as the full statement does", async () => {
    const agent = uniq("fused-lift");
    const path = `/v1/agents/${agent}/memories`;
    // 40 memories about other things, then the old fact (matches the question) and its replacement
    // (shares neither words nor direction with the question: it can reach the top k only by the lift).
    const others = Array.from({ length: 40 }, (_, i) => ({
      description: `note ${i} about the weather`,
      // Half-way to the question's direction: all of them outrank the replacement by relevance.
      embedding: vec(2 + (i % 20)).map((x, d) => (d === 0 ? 0.6 : x * 0.8)),
      importance: 5,
      createdAt: `2026-01-0${1 + (i % 9)}T10:00:00Z`,
    }));
    expect((await t.call("POST", path, { memories: others })).status).toBe(201);
    const old = (await (
      await t.call("POST", path, {
        description: "Alice lives in Paris",
        embedding: vec(0),
        importance: 5,
        createdAt: "2026-01-10T10:00:00Z",
      })
    ).json()) as { id: string };
    const next = (await (
      await t.call("POST", path, {
        description: "moved to Berlin",
        embedding: vec(1),
        // Least important and, by its last access, least recent: last in the recency + importance
        // list too, so only the lift's search of every memory finds it.
        importance: 1,
        createdAt: "2026-03-02T09:00:00Z",
        supersedes: [old.id],
      })
    ).json()) as { id: string };
    const db = t.system.database.db;
    await db.execute(
      sql`UPDATE memories SET last_accessed_at = '2025-12-01T00:00:00Z' WHERE agent_id = ${agent} AND id = ${next.id}`,
    );
    const p: RankParams = {
      agentId: agent,
      filters: {},
      query: { vector: `[${vec(0).join(",")}]`, model: "openai:stub-embed@64", dimensions: DIMS },
      lexical: { kind: "contextual", text: "Where does Alice live in Paris", vectorShare: 0.6 },
      timeWindow: null,
      now: new Date("2026-04-01T00:00:00Z"),
      decay: 0.998,
      recencyUnit: "day",
      weights: { recency: 0.1, importance: 0.1, relevance: 1 },
      lift: "newer",
      k: 3,
      touch: false,
    };
    const fused = await db.transaction((tx) =>
      runPlan<ScoredRow>(tx, { statement: "fused", reason: "", workers: false }, p, {
        listSize: 10,
        mostRelevant: 10,
      }),
    );
    expect(fused.ran.statement).toBe("fused");
    // The pruning ran and left memories out (the replacement among them: only the lift's search of
    // every memory finds it), and the replacement is right above the old fact.
    expect(fused.rows[0]?.pruned).toBe(true);
    expect(Number(fused.rows[0]?.candidates)).toBeLessThan(others.length + 2);
    expect(fused.rows.slice(0, 2).map((r) => r.id)).toEqual([next.id, old.id]);
    const full = await db.transaction((tx) =>
      queryRows<ScoredRow>(tx, exactStatement({ statement: "full", reason: "", workers: false }, p)),
    );
    const bits = (rows: ScoredRow[]) =>
      rows.map((r) =>
        [r.id, r.score, r.sRecency, r.sImportance, r.sRelevance, r.sLift, r.superseded].map(String).join(" "),
      );
    expect(bits(fused.rows)).toEqual(bits(full));
  });
});
