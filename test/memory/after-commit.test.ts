import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { ANNOUNCERS } from "../../src/memory/after-commit";
import { createMemories } from "../../src/memory/create-memories";
import type { MemoryDeps, PendingWork } from "../../src/memory/deps";
import { inMemoryTransaction } from "../../src/memory/transaction";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// Work announced inside a transaction is announced after its commit (after-commit.ts): a job
// started by an announcement must find the rows it names. Each seam here answers what another
// connection sees of those rows at the moment it is told, as a worker would.

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

/** Seams that record, per announcement, how many of the named memories another connection sees. */
function probes(deps: MemoryDeps) {
  const seen: Record<string, number[]> = {};
  const visible = async (seam: string, agentId: string, ids: string[]) => {
    const [row] = await queryRows<{ n: number }>(
      deps.db,
      sql`SELECT count(*)::int AS n FROM memories WHERE agent_id = ${agentId} AND id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
    );
    seen[seam] = [...(seen[seam] ?? []), row?.n ?? 0];
  };
  const byAgent = async (seam: string, agentId: string) => {
    const [row] = await queryRows<{ n: number }>(
      deps.db,
      sql`SELECT count(*)::int AS n FROM memories WHERE agent_id = ${agentId}`,
    );
    seen[seam] = [...(seen[seam] ?? []), row?.n ?? 0];
  };
  const items = (seam: string) => async (work: PendingWork[]) =>
    visible(
      seam,
      work[0]?.agentId ?? "",
      work.map((w) => w.memoryId),
    );
  return {
    seen,
    seams: {
      enrichment: { pending: items("enrichment") },
      supersession: { embedded: items("supersession") },
      reflection: { importanceAdded: (agentId: string) => byAgent("reflection", agentId) },
      outcomes: { recorded: (agentId: string) => byAgent("outcomes", agentId) },
      learner: { feedbackGiven: (agentId: string) => byAgent("learner", agentId) },
    } satisfies Pick<MemoryDeps, (typeof ANNOUNCERS)[number]>,
  };
}

describe("announcements inside a transaction", () => {
  it("are made after the commit, every kind, and not at all after a rollback", async () => {
    const agent = uniq("after-commit");
    const base = t.system.memory;
    const probe = probes(base);
    const deps: MemoryDeps = { ...base, ...probe.seams };
    const write = (memory: MemoryDeps) =>
      createMemories(memory, agent, [
        // A vector and importance given: supersession and reflection are told.
        {
          description: "Alice moved to Berlin",
          embedding: [1, 0, 0],
          embeddingModel: "ac-3d",
          importance: 6,
        },
        // Neither: enrichment is told.
        { description: "Alice likes trains" },
      ]);
    await inMemoryTransaction(deps, async (memory) => {
      await write(memory);
      await memory.outcomes?.recorded(agent, "deploy");
      await memory.learner?.feedbackGiven(agent);
    });
    // Each seam was told once, and saw every memory it was told of.
    expect(probe.seen).toEqual({
      enrichment: [1],
      supersession: [1],
      reflection: [2],
      outcomes: [2],
      learner: [2],
    });
    expect(Object.keys(probe.seen).sort()).toEqual([...ANNOUNCERS].sort());

    const rolledBack = probes(base);
    await expect(
      inMemoryTransaction({ ...base, ...rolledBack.seams }, async (memory) => {
        await write(memory);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(rolledBack.seen).toEqual({});
  });
});
