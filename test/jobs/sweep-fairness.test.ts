import { afterAll, beforeAll, expect, it } from "vitest";
import { receiveDelivery } from "../../src/ingest/github/receive-delivery";
import type { JobRequest } from "../../src/jobs/catalog";
import { type SweepCursors, sweepOnce } from "../../src/jobs/sweep";
import { uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { fixedClock, startTestSystem, type TestSystem, without } from "../support/system";

// The sweep is fair: with a backlog larger than its limit, whose older rows stay
// pending (their jobs queued behind others), work that arrived later and lost its job is still
// announced within ceil(backlog / limit) + 1 runs: each run resumes where the last one stopped.
// Before, every run announced the same oldest `limit` rows and the rest waited for the backlog.
// A database of its own: the sweep reads every agent's pending work.
const T0 = "2100-01-01T00:00:00.000Z";
const clock = fixedClock(T0);
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
let own: Awaited<ReturnType<typeof ownDatabase>>;
let t: TestSystem;
beforeAll(async () => {
  own = await ownDatabase("sweep-fair");
  t = await startTestSystem({ clock, announce: without("memories.pending"), env: { DATABASE_URL: own.url } });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await own?.drop();
});

const LIMIT = 5;
const BACKLOG = 12;

it("a backlog over the sweep's limit: the newest lost work of every kind is announced within ceil(n / limit) + 1 runs", async () => {
  const agent = uniq("sweep-fair");
  const path = `/v1/agents/${agent}`;
  const outcome = (taskType: string) => ({ task: "Deploy", taskType, success: true });
  // The backlog: pending memories, received deliveries, unconsolidated outcomes, all at T0.
  const memories = Array.from({ length: BACKLOG }, (_, i) => ({ description: `backlog ${i}` }));
  expect((await t.call("POST", `${path}/memories`, { memories })).status).toBe(201);
  for (let i = 0; i < BACKLOG; i++) {
    await receiveDelivery(t.system.services, { id: `${agent}-${i}`, event: "ping", payload: { zen: "x" } });
    expect((await t.call("POST", `${path}/outcomes`, outcome(`backlog-${i}`))).status).toBe(201);
  }
  // The work that lost its job, a second later than all of it.
  clock.set(later(1_000));
  const lost = (await (await t.call("POST", `${path}/memories`, { description: "lost" })).json()) as {
    id: string;
  };
  await receiveDelivery(t.system.services, { id: `${agent}-lost`, event: "ping", payload: { zen: "x" } });
  expect((await t.call("POST", `${path}/outcomes`, outcome("lost"))).status).toBe(201);

  const cursors: SweepCursors = {};
  const run = async () => {
    const jobs: JobRequest[] = [];
    const counts = await sweepOnce(
      {
        db: t.system.services.db,
        clock: fixedClock(later(120_000)),
        sink: { enqueue: async (js) => void jobs.push(...js) },
        afterMs: 60_000,
        limit: LIMIT,
        embedChunk: 100,
        deliveryAttempts: 3,
      },
      cursors,
    );
    const memoryIds = jobs.flatMap((j) =>
      j.name === "memories.embed" ? j.payload.items.map((i) => i.memoryId) : [],
    );
    const deliveryIds = jobs.flatMap((j) => (j.name === "github.deliver" ? [j.payload.deliveryId] : []));
    const taskTypes = jobs.flatMap((j) => (j.name === "outcomes.consolidate" ? [j.payload.taskType] : []));
    return { counts, memoryIds, deliveryIds, taskTypes };
  };

  // Pending memories: the observations and the outcomes' memories (13 + 13); deliveries and task types: 13.
  const pendingMemories = 2 * (BACKLOG + 1);
  const runs: Awaited<ReturnType<typeof run>>[] = [];
  for (let i = 0; i < Math.ceil(pendingMemories / LIMIT); i++) runs.push(await run());
  for (const r of runs) {
    expect(r.memoryIds.length).toBeLessThanOrEqual(LIMIT);
    expect(r.deliveryIds.length).toBeLessThanOrEqual(LIMIT);
    expect(r.taskTypes.length).toBeLessThanOrEqual(LIMIT);
  }
  const first = Math.ceil((BACKLOG + 1) / LIMIT);
  const seen = <K extends "memoryIds" | "deliveryIds" | "taskTypes">(k: K, n: number) =>
    runs.slice(0, n).flatMap((r) => r[k]);
  expect(new Set(seen("memoryIds", runs.length)).size).toBe(pendingMemories);
  expect(seen("memoryIds", runs.length)).toContain(lost.id);
  expect(new Set(seen("deliveryIds", first)).size).toBe(BACKLOG + 1);
  expect(seen("deliveryIds", first)).toContain(`${agent}-lost`);
  expect(new Set(seen("taskTypes", first)).size).toBe(BACKLOG + 1);
  expect(seen("taskTypes", first)).toContain("lost");

  // Past the end a scan starts over at the oldest: the first run's page again.
  expect(runs[first]?.deliveryIds).toEqual(runs[0]?.deliveryIds);
  expect(runs[first]?.taskTypes).toEqual(runs[0]?.taskTypes);
  expect((await run()).memoryIds).toEqual(runs[0]?.memoryIds);
});
