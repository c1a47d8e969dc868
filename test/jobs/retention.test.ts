import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import type { Memory } from "../../src/memory/types";
import { uniq } from "../support/env";
import { stubEmbedding } from "../support/stub-openai";
import type { TestSystem } from "../support/system";
import { startPipeline, stats, waitFor } from "./support";

// Each test has a database of its own (startPipeline): the sweep applies every stored policy of
// the database it runs on.
let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

async function setup(env: Record<string, string> = {}) {
  const p = await startPipeline(env);
  const agent = uniq("retain");
  cleanup = () => p.close([agent]);
  return { ...p, agent, path: `/v1/agents/${agent}` };
}

const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();

async function post(t: TestSystem, path: string, memories: object[]): Promise<Memory[]> {
  const res = await t.call("POST", `${path}/memories`, { memories });
  expect(res.status).toBe(201);
  return ((await res.json()) as { memories: Memory[] }).memories;
}

/** No job of any name waiting, delayed or running. */
async function queuesIdle(t: TestSystem): Promise<boolean> {
  for (const q of t.system.jobs.queues ?? []) {
    const c = await q.getJobCounts("active", "waiting", "delayed", "prioritized");
    if (Object.values(c).some((n) => n > 0)) return false;
  }
  return true;
}

describe("agent.retain (scheduled by the sweep)", () => {
  it("applies the agent's policy, counts what it forgot, and runs again an interval later", async () => {
    const { t, agent, path } = await setup({ MEMSTREAM_RETENTION_INTERVAL_MS: "1000" });
    const old = (i: number) => ({ description: `old ${i}`, importance: 2, createdAt: daysAgo(40 + i) });
    const kept = await post(t, path, [
      ...Array.from({ length: 5 }, (_, i) => old(i)),
      { description: "recent", importance: 2, createdAt: daysAgo(1) },
      { description: "old but vital", importance: 9, createdAt: daysAgo(50) },
    ]);
    expect(
      (await t.call("PUT", `${path}/settings`, { retention: { maxAgeDays: 30, keepImportanceAtLeast: 8 } }))
        .status,
    ).toBe(200);
    t.system.jobs.startWorkers();
    const first = await waitFor("first retention run", async () => {
      const s = await stats(t, agent);
      return s.forgotten === 5 && s.retainedAt ? s : null;
    });
    expect(first.total).toBe(2);
    // A memory that ages past the policy later goes at a later run.
    await post(t, path, [old(9)]);
    const second = await waitFor("second retention run", async () => {
      const s = await stats(t, agent);
      return s.forgotten === 6 ? s : null;
    });
    expect(second.total).toBe(2);
    const res = await t.call("GET", `${path}/memories`);
    const left = ((await res.json()) as { memories: Memory[] }).memories.map((m) => m.description).sort();
    expect(left).toEqual(["old but vital", "recent"]);
    expect(kept).toHaveLength(7);
  });
});

describe("deleted is gone", () => {
  it("a memory forgotten while its embed and score jobs are running does not come back", async () => {
    const { t, agent, path } = await setup();
    const embedHeld = t.stub.holdNextEmbedding(/doomed/);
    const scoreHeld = t.stub.holdNextChat(/doomed/);
    const [doomed, keep] = await post(t, path, [
      { description: "doomed note about the printer", createdAt: daysAgo(30) },
      { description: "kept note about lunch", createdAt: daysAgo(1) },
    ]);
    const [reflection] = await post(t, path, [
      {
        description: "the printer keeps breaking",
        kind: "reflection",
        importance: 3,
        createdAt: daysAgo(20),
        embedding: stubEmbedding("the printer keeps breaking"),
        citations: [doomed?.id],
      },
    ]);
    t.system.jobs.startWorkers();
    // Both provider calls for the doomed memory have started: its rows are claimed, jobs running.
    await Promise.all([embedHeld.arrived, scoreHeld.arrived]);

    const forget = async () => {
      const res = await t.call("POST", `${path}/forget`, { policy: { maxAgeDays: 7 } });
      expect(res.status).toBe(200);
      return (await res.json()) as { count: number; sample: string[] };
    };
    // The reflection cites it, so the first run takes only the reflection; the next one takes it.
    expect(await forget()).toMatchObject({ count: 1, sample: [reflection?.id] });
    expect(await forget()).toMatchObject({ count: 1, sample: [doomed?.id] });

    embedHeld.release();
    scoreHeld.release();
    await waitFor("the kept memory enriched and the queues idle", async () => {
      const s = await stats(t, agent);
      return s.importance.ready === 1 && s.embedding.ready === 1 && (await queuesIdle(t));
    });

    const gone = [doomed?.id, reflection?.id] as string[];
    const s = await stats(t, agent);
    expect(s).toMatchObject({ total: 1, forgotten: 2 });
    for (const id of gone) expect((await t.call("GET", `${path}/memories/${id}`)).status).toBe(404);
    const listed = (await (await t.call("GET", `${path}/memories`)).json()) as { memories: Memory[] };
    expect(listed.memories.map((m) => m.id)).toEqual([keep?.id]);
    const retrieved = (await (
      await t.call("POST", `${path}/retrieve`, { query: "doomed note about the printer", k: 10 })
    ).json()) as { memories: Memory[] };
    expect(retrieved.memories.map((m) => m.id)).toEqual([keep?.id]);
    const [rows] = await queryRows<{ memories: number; vectors: number }>(
      t.system.database.db,
      sql`SELECT (SELECT count(*) FROM memories WHERE id IN ${gone})::int AS memories,
            (SELECT count(*) FROM memory_embeddings WHERE memory_id IN ${gone})::int AS vectors`,
    );
    expect(rows).toEqual({ memories: 0, vectors: 0 });
    // Nor through citations: a new reflection cannot cite it.
    const cite = await t.call("POST", `${path}/memories`, {
      description: "about the printer",
      kind: "reflection",
      citations: [doomed?.id],
    });
    expect(cite.status).toBe(400);
  });
});
