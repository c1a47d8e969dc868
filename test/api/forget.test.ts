import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import type { AgentStats } from "../../src/memory/agent-stats";
import { forget } from "../../src/memory/retention/forget";
import type { ForgetReport } from "../../src/memory/retention/report";
import type { Memory } from "../../src/memory/types";
import { uniq } from "../support/env";
import { stubEmbedding } from "../support/stub-vectors";
import { startTestSystem, type TestSystem } from "../support/system";

// Policies here are passed in the request: a policy stored in the settings of this shared
// database would also be applied by other files' sweeps (test/jobs/retention.test.ts has its own).

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
const path = (agent: string) => `/v1/agents/${encodeURIComponent(agent)}`;

type Seed = { key: string; days: number; importance: number; kind?: string; cites?: string[] };

/** Stores memories oldest first (each with a vector), returning their ids by key. */
async function seed(agent: string, items: Seed[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const s of items) {
    const description = `${s.key} happened`;
    const res = await t.call("POST", `${path(agent)}/memories`, {
      memories: [
        {
          description,
          kind: s.kind ?? "observation",
          createdAt: daysAgo(s.days),
          importance: s.importance,
          embedding: stubEmbedding(description),
          citations: (s.cites ?? []).map((k) => ids[k]),
        },
      ],
    });
    expect(res.status).toBe(201);
    ids[s.key] = ((await res.json()) as { memories: Memory[] }).memories[0]?.id as string;
  }
  return ids;
}

async function post(agent: string, body: object, status = 200) {
  const res = await t.call("POST", `${path(agent)}/forget`, body);
  expect(res.status).toBe(status);
  return res.json() as Promise<ForgetReport>;
}

async function listed(agent: string): Promise<string[]> {
  const res = await t.call("GET", `${path(agent)}/memories?limit=100`);
  return ((await res.json()) as { memories: Memory[] }).memories.map((m) => m.id);
}

async function vectorsOf(agent: string): Promise<number> {
  const [r] = await queryRows<{ n: number }>(
    t.system.database.db,
    sql`SELECT count(*)::int AS n FROM memory_embeddings WHERE agent_id = ${agent}`,
  );
  return Number(r?.n);
}

describe("POST /forget", () => {
  it("dry run reports what goes (age, importance, citations), then the run deletes exactly that", async () => {
    const agent = uniq("forget-age");
    const id = await seed(agent, [
      { key: "o0", days: 10, importance: 3 },
      { key: "o1", days: 9, importance: 9 }, // kept: important enough
      { key: "o2", days: 8, importance: 2 }, // kept: a reflection cites it
      { key: "o3", days: 7, importance: 2 },
      { key: "r", days: 6, importance: 4, kind: "reflection", cites: ["o2"] },
      { key: "o4", days: 2, importance: 1 }, // kept: too young
    ]);
    const policy = { maxAgeDays: 5, keepImportanceAtLeast: 8 };
    const dry = await post(agent, { dryRun: true, policy });
    expect(dry).toEqual({
      dryRun: true,
      policy,
      policySource: "request",
      count: 3,
      byKind: { observation: 2, reflection: 1 },
      sample: [id.o0, id.o3, id.r],
    });
    expect(await listed(agent)).toHaveLength(6);
    expect(await vectorsOf(agent)).toBe(6);

    const run = await post(agent, { policy });
    expect(run).toEqual({ ...dry, dryRun: false });
    expect((await listed(agent)).sort()).toEqual([id.o1, id.o2, id.o4].sort());
    expect(await vectorsOf(agent)).toBe(3);
    const stats = (await (await t.call("GET", `${path(agent)}/stats`)).json()) as AgentStats;
    expect(stats).toMatchObject({ total: 3, forgotten: 3 });

    // The reflection is gone, so the memory it cited is no longer protected: the next run takes it.
    expect(await post(agent, { dryRun: true, policy })).toMatchObject({ count: 1, sample: [id.o2] });
    expect(await post(agent, { policy })).toMatchObject({ count: 1, sample: [id.o2] });
    expect(await post(agent, { dryRun: true, policy })).toMatchObject({ count: 0, byKind: {}, sample: [] });
  });

  it("maxMemories deletes the oldest deletable memories, batch by batch, as the dry run said", async () => {
    const agent = uniq("forget-max");
    const items: Seed[] = Array.from({ length: 11 }, (_, i) => ({
      key: `o${i}`,
      days: 11 - i,
      importance: 5,
    }));
    const id = await seed(agent, [
      ...items,
      { key: "r", days: 0.5, importance: 5, kind: "reflection", cites: ["o3", "o5"] },
    ]);
    const policy = { maxMemories: 4 };
    const dry = await post(agent, { dryRun: true, policy });
    const expected = ["o0", "o1", "o2", "o4", "o6", "o7", "o8", "o9"].map((k) => id[k]);
    expect(dry).toMatchObject({ count: 8, byKind: { observation: 8 }, sample: expected });
    // Batches of 3: three statements, the last one short.
    const run = await forget(t.system.services, agent, { policy }, 3);
    expect(run).toEqual({ ...dry, dryRun: false });
    expect((await listed(agent)).sort()).toEqual([id.o3, id.o5, id.o10, id.r].sort());
    expect(await vectorsOf(agent)).toBe(4);
  });

  it("keeps unscored memories under keepImportanceAtLeast, and maxMemories 0 keeps only protected ones", async () => {
    const agent = uniq("forget-unscored");
    const res = await t.call("POST", `${path(agent)}/memories`, {
      memories: [{ description: "no score yet", createdAt: daysAgo(30) }],
    });
    const [pending] = ((await res.json()) as { memories: Memory[] }).memories;
    const id = await seed(agent, [{ key: "low", days: 20, importance: 1 }]);
    // The pipeline may score it meanwhile; the rule is only asserted while it is unscored.
    const dry = await post(agent, { dryRun: true, policy: { maxMemories: 0, keepImportanceAtLeast: 3 } });
    const scored = ((await (await t.call("GET", `${path(agent)}/memories/${pending?.id}`)).json()) as Memory)
      .importance;
    if (scored === null) expect(dry.sample).toEqual([id.low]);
    expect(await post(agent, { policy: { maxMemories: 0 } })).toMatchObject({ count: 2 });
    expect(await listed(agent)).toEqual([]);
  });

  it("never deletes document sections: their document owns them", async () => {
    const agent = uniq("forget-docs");
    const doc = await t.call("POST", `${path(agent)}/documents`, {
      source: "docs/runbook.md",
      content: "# Runbook\n\nRestart the worker.\n\n## Deploys\n\nDeploy on Tuesdays.",
    });
    expect(doc.status).toBeLessThan(300);
    const id = await seed(agent, [{ key: "note", days: 3, importance: 2 }]);
    const before = await listed(agent);
    expect(before.length).toBeGreaterThan(1);
    expect(await post(agent, { policy: { maxMemories: 0 } })).toMatchObject({
      count: 1,
      byKind: { observation: 1 },
      sample: [id.note],
    });
    expect((await listed(agent)).sort()).toEqual(before.filter((x) => x !== id.note).sort());
  });

  it("400 without a policy, with one that deletes nothing, or with a bad field", async () => {
    const agent = uniq("forget-bad");
    for (const [body, field] of [
      [{}, "policy"],
      [{ dryRun: true }, "policy"],
      [{ policy: { keepImportanceAtLeast: 5 } }, "policy"],
      [{ policy: { maxMemories: -1 } }, "policy.maxMemories"],
      [{ policy: { maxAgeDays: 0 } }, "policy.maxAgeDays"],
      [{ policy: { maxAge: 3 } }, "policy"],
      [{ dryRun: "yes" }, "dryRun"],
    ] as const) {
      const res = await t.call("POST", `${path(agent)}/forget`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as {
        error: { code: string; message: string; details?: { field?: string } };
      };
      expect(err.error.code).toBe("invalid_request");
      expect(`${err.error.details?.field} ${err.error.message}`).toContain(field);
    }
  });
});

describe("retention settings", () => {
  it("stores, shows and clears the agent's policy; bad policies are 400", async () => {
    const agent = uniq("retention-settings");
    const put = (body: object) => t.call("PUT", `${path(agent)}/settings`, body);
    const policy = { maxMemories: 1000, maxAgeDays: 30, keepImportanceAtLeast: 7 };
    const set = await put({ retention: policy });
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ retention: policy });
    expect(await (await t.call("GET", `${path(agent)}/settings`)).json()).toMatchObject({
      retention: policy,
    });
    // Other settings leave it alone; null clears it.
    expect(await (await put({ reflectionThreshold: 10 })).json()).toMatchObject({ retention: policy });
    expect(await (await put({ retention: null })).json()).toMatchObject({ retention: null });
    expect((await put({ retention: { keepImportanceAtLeast: 3 } })).status).toBe(400);
    expect((await put({ retention: { maxMemories: 1.5 } })).status).toBe(400);
  });
});
