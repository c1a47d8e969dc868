import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { coalesce, HELD_KINDS } from "../../src/memory/after-commit";
import { createMemories } from "../../src/memory/create-memories";
import type { MemoryDeps } from "../../src/memory/deps";
import type { Announce, WorkEvent } from "../../src/memory/events";
import { inMemoryTransaction } from "../../src/memory/transaction";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// Work announced inside a transaction is announced after its commit (after-commit.ts): a job
// started by an announcement must find the rows it names. The probe answers, per event, how many
// of the agent's memories another connection sees at the moment it is told, as a worker would.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

/**
 * An `announce` that records, per call and event, what another connection sees: of the memories
 * an event names, how many; of an event naming none, how many memories the agent has.
 */
function probe(deps: MemoryDeps, agentId: string) {
  const calls: Record<string, number>[] = [];
  const visible = async (ids: string[] | null) => {
    const [row] = await queryRows<{ n: number }>(
      deps.db,
      sql`SELECT count(*)::int AS n FROM memories WHERE agent_id = ${agentId}
          AND (${ids === null} OR id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids ?? [])}::jsonb)))`,
    );
    return row?.n ?? 0;
  };
  const announce: Announce = async (events) => {
    const seen: Record<string, number> = {};
    for (const e of events)
      seen[e.kind] = await visible("items" in e ? e.items.map((i) => i.memoryId) : null);
    calls.push(seen);
  };
  return { calls, announce };
}

describe("announcements inside a transaction", () => {
  it("are made after the commit, in one call holding every kind, and not at all after a rollback", async () => {
    const agent = uniq("after-commit");
    const base = { ...t.system.services, supersession: true };
    const write = (memory: MemoryDeps) =>
      createMemories(memory, agent, [
        // A vector and importance given: supersession and reflection are announced.
        {
          description: "Alice moved to Berlin",
          embedding: [1, 0, 0],
          embeddingModel: "ac-3d",
          importance: 6,
        },
        // Neither: enrichment is announced.
        { description: "Alice likes trains" },
      ]);
    const others: WorkEvent[] = [
      { kind: "outcome.recorded", agentId: agent, taskType: "deploy" },
      { kind: "feedback.given", agentId: agent },
      { kind: "retention.due", agentId: agent },
      { kind: "delivery.accepted", deliveryId: `d-${agent}` },
      { kind: "import.opened", importId: `i-${agent}`, agentId: agent },
      { kind: "events.pending", deliveries: [{ agentId: agent, deliveryId: `evd_${agent}` }] },
    ];
    const p = probe(base, agent);
    await inMemoryTransaction({ ...base, announce: p.announce }, async (memory) => {
      await write(memory);
      await memory.announce(others);
      // Told twice inside, announced once after.
      await memory.announce([{ kind: "feedback.given", agentId: agent }]);
    });
    // One call after the commit, holding every kind, each seeing every memory it names (or both).
    expect(p.calls).toEqual([
      { ...Object.fromEntries(HELD_KINDS.map((k) => [k, 2])), "memories.pending": 1, "memories.embedded": 1 },
    ]);

    const rolledBack = probe(base, agent);
    await expect(
      inMemoryTransaction({ ...base, announce: rolledBack.announce }, async (memory) => {
        await write(memory);
        await memory.announce(others);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(rolledBack.calls).toEqual([]);
  });
});

describe("coalesce", () => {
  it("merges the memories of a kind (per narrowed field) and makes any other event once", () => {
    const m = (memoryId: string) => ({ memoryId, agentId: "a", revision: 1 });
    expect(
      coalesce([
        { kind: "memories.pending", items: [m("1")] },
        { kind: "importance.added", agentId: "a" },
        { kind: "memories.pending", items: [m("2")] },
        { kind: "memories.pending", items: [m("3")], fields: "importance" },
        { kind: "importance.added", agentId: "a" },
        { kind: "importance.added", agentId: "b" },
        { kind: "outcome.recorded", agentId: "a", taskType: null },
        { kind: "outcome.recorded", agentId: "a", taskType: "deploy" },
      ]),
    ).toEqual([
      { kind: "memories.pending", items: [m("1"), m("2")] },
      { kind: "importance.added", agentId: "a" },
      { kind: "memories.pending", items: [m("3")], fields: "importance" },
      { kind: "importance.added", agentId: "b" },
      { kind: "outcome.recorded", agentId: "a", taskType: null },
      { kind: "outcome.recorded", agentId: "a", taskType: "deploy" },
    ]);
  });
});
