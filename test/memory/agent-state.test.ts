import { sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAgentState } from "../../src/memory/retrieve/agent-state";
import { exactStatementFor } from "../../src/memory/retrieve/execute";
import { MIN_STREAM } from "../../src/memory/retrieve/plan";
import type { RankParams } from "../../src/memory/retrieve/statements/params";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// Retrieve learns from the agent-state read whether the stream is below the threshold
// statement's size gate, and then ranks every memory with the full statement (no lists to plan).

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

/** `n` scored memories of `agent`, written straight to the table (no enrichment work queued). */
async function addMemories(agent: string, from: number, n: number): Promise<void> {
  await t.system.database.db.execute(sql`
    INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at, importance,
      importance_status, embedding_status)
    SELECT ${agent} || '-' || g, ${agent}, 'observation', 'memory ' || g, now(), now(), 5, 'ready', 'ready'
    FROM generate_series(${from}::int, ${from + n - 1}::int) g`);
}

describe("agent state: stream size against the threshold statement's gate", () => {
  it(`is small below ${MIN_STREAM} memories and not from ${MIN_STREAM} on`, async () => {
    const agent = uniq("stream-size");
    const db = t.system.database.db;
    await addMemories(agent, 1, MIN_STREAM - 1);
    expect((await readAgentState(db, agent, {}, 8)).smallStream).toBe(true);
    // Another agent's memories do not count.
    await addMemories(uniq("stream-size-other"), 1, 10);
    expect((await readAgentState(db, agent, {}, 8)).smallStream).toBe(true);
    // Not counted when the caller says the size cannot matter (filters or sections).
    expect(
      (await readAgentState(db, agent, { kinds: ["observation"] }, 8, { countStream: false })).smallStream,
    ).toBe(false);
    const ask = async () => {
      const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
        queryEmbedding: Array.from({ length: 64 }, (_, i) => Math.cos(i)),
        preset: "paper",
        touch: false,
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { ranking: { plan: string; planReason: string } }).ranking;
    };
    expect(await ask()).toMatchObject({ plan: "full", planReason: expect.stringMatching(/under 3,300/) });
    await addMemories(agent, MIN_STREAM, 1);
    expect((await readAgentState(db, agent, {}, 8)).smallStream).toBe(false);
    // The answer names the statement the planner chose, and why.
    expect(await ask()).toMatchObject({ plan: "threshold", planReason: expect.stringMatching(/3,300\+/) });
  });

  it("ranks a small stream with the full statement and a large one with the threshold statement", () => {
    const p: RankParams = {
      agentId: "a",
      filters: {},
      query: { vector: "[1,0]", model: "m", dimensions: 2 },
      now: new Date("2026-01-01T00:00:00Z"),
      decay: 0.99,
      weights: { recency: 1, importance: 1, relevance: 1 },
      k: 10,
      touch: false,
    };
    const text = (small: boolean) =>
      new PgDialect().sqlToQuery(exactStatementFor(p, { small, large: false }).sql).sql;
    expect(text(false)).toContain("blist");
    expect(text(true)).not.toContain("blist");
  });
});
