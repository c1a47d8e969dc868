import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { type LoggedCandidate, logRetrieval } from "../../src/memory/learning/log";
import { uniq } from "../support/env";
import { fixedClock, startTestSystem, type TestSystem } from "../support/system";

const clock = fixedClock("2026-03-01T12:00:00.000Z");
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({
    clock,
    // Tiny bounds: the retrieves below must be logged whatever they prune.
    env: { MEMSTREAM_RETRIEVAL_LOG_MAX: "3", MEMSTREAM_RETRIEVAL_LOG_DAYS: "1" },
  });
});
afterAll(() => t.close());

async function seed(agent: string, n: number) {
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
    memories: Array.from({ length: n }, (_, i) => ({
      description: `memory ${i}`,
      importance: 1 + i,
      embedding: [1, i, 0],
      embeddingModel: "log-3d",
    })),
  });
  expect(res.status).toBe(201);
}

type Answer = {
  retrievalId: string;
  memories: { id: string; scores: { recency: number; importance: number; relevance: number } }[];
};
async function retrieve(agent: string, body: object = {}): Promise<Answer> {
  const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
    queryEmbedding: [1, 1, 0],
    embeddingModel: "log-3d",
    touch: false,
    k: 3,
    ...body,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

const logOf = (agent: string) =>
  queryRows<{ id: string; candidates: LoggedCandidate[] }>(
    t.system.database.db,
    sql`SELECT id, candidates FROM retrieval_log WHERE agent_id = ${agent} ORDER BY created_at`,
  );

describe("retrieval log", () => {
  it("gives every answer a retrievalId and logs its memories and the pool below them with their scaled components", async () => {
    const agent = uniq("log");
    await seed(agent, 5);
    const a = await retrieve(agent);
    expect(a.retrievalId).toMatch(/^ret_[0-9a-z]{20}$/);
    const [row] = await logOf(agent);
    expect(row?.id).toBe(a.retrievalId);
    // The memories returned first, then the rest of the pool the statement ranked, marked 0 (all 5 here).
    expect(row?.candidates.slice(0, 3)).toEqual(
      a.memories.map((m) => [m.id, m.scores.recency, m.scores.importance, m.scores.relevance]),
    );
    expect(row?.candidates).toHaveLength(5);
    expect(row?.candidates.slice(3).map((c) => c[4])).toEqual([0, 0]);
    expect(new Set(row?.candidates.map((c) => c[0])).size).toBe(5);
    // The context path (maxTokens) logs too, under its own id.
    const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, { query: "memory", maxTokens: 200 });
    const b = (await res.json()) as Answer;
    expect(b.retrievalId).not.toBe(a.retrievalId);
    // Both at the fixed clock's one instant: their order in the log is not defined, their presence is.
    expect((await logOf(agent)).map((r) => r.id).sort()).toEqual([a.retrievalId, b.retrievalId].sort());
  });

  it("keeps at most `max` retrieves per agent, and none older than its age bound, when it prunes", async () => {
    const agent = uniq("log");
    const other = uniq("log");
    const db = t.system.database.db;
    const bounds = { max: 3, maxAgeMs: 86_400_000 };
    const at = (min: number) => new Date(Date.parse("2026-03-01T12:00:00.000Z") + min * 60_000);
    const log = (a: string, id: string, min: number, prune: boolean) =>
      logRetrieval(db, { agentId: a, id, candidates: [], at: at(min) }, bounds, () => (prune ? 0 : 0.99));
    await log(other, "ret_other", 0, true);
    // Without a prune the log grows past its bound; the next prune brings it back.
    for (let i = 0; i < 5; i++) await log(agent, `ret_${i}`, i, false);
    expect(await logOf(agent)).toHaveLength(5);
    await log(agent, "ret_5", 5, true);
    expect((await logOf(agent)).map((r) => r.id)).toEqual(["ret_3", "ret_4", "ret_5"]);
    // A day and more later the old ones go, whatever their number.
    await log(agent, "ret_late", 24 * 60 + 10, true);
    expect((await logOf(agent)).map((r) => r.id)).toEqual(["ret_late"]);
    // Another agent's log is its own.
    expect((await logOf(other)).map((r) => r.id)).toEqual(["ret_other"]);
  });

  it("is deleted with the agent", async () => {
    const agent = uniq("log");
    await seed(agent, 2);
    await retrieve(agent);
    expect(await logOf(agent)).toHaveLength(1);
    expect((await t.call("DELETE", `/v1/agents/${agent}`)).status).toBe(200);
    expect(await logOf(agent)).toHaveLength(0);
  });
});
