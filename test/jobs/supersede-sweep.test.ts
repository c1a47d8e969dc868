import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import type { JobRequest } from "../../src/jobs/catalog";
import { type SweepOptions, sweepOnce } from "../../src/jobs/sweep";
import { createMemories } from "../../src/memory/create-memories";
import { uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { stubEmbedding } from "../support/stub-openai";
import { fixedClock, startTestSystem, type TestSystem } from "../support/system";
import { waitFor } from "./support";

// Supersession checks are marked in the database (`supersession_due_at`, docs/adr/0042), so the
// sweep finds the ones whose `memories.supersede` job was lost, and the ones deferred because the
// agent's LLM budget (1 call a day, its own setting) was spent, once the budget day has turned. In-process
// queue, the stub LLM; a database of its own, since the sweep reads every agent's marks.
const now = new Date();
const MIDNIGHT = new Date(`${now.toISOString().slice(0, 10)}T00:00:00.000Z`);
MIDNIGHT.setUTCDate(MIDNIGHT.getUTCDate() + 1);
const clock = fixedClock(now.toISOString());
const later = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();
/** While set, `memories.embedded` is not announced: as if its job were lost with Redis. */
let lose = false;
let own: Awaited<ReturnType<typeof ownDatabase>>;
let t: TestSystem;
beforeAll(async () => {
  own = await ownDatabase("supersede-sweep");
  t = await startTestSystem({
    clock,
    announce: (jobs) => (events) =>
      jobs(lose ? events.filter((e) => e.kind !== "memories.embedded") : events),
    env: {
      DATABASE_URL: own.url,
      LLM_MODEL: "stub-chat",
      MEMSTREAM_SUPERSESSION: "llm",
      REFLECTION_THRESHOLD: "0",
    },
  });
  t.system.jobs.startWorkers();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await own?.drop();
});

type Mem = { id: string; supersededBy: string | null };
const path = (a: string) => `/v1/agents/${encodeURIComponent(a)}/memories`;
/** Writes a memory a second after the last one (earlier memories are those written no later). */
const post = async (agent: string, description: string) => {
  clock.set(later(1_000));
  const res = await t.call("POST", path(agent), {
    description,
    importance: 3,
    embedding: stubEmbedding(description),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as Mem;
};
const get = async (agent: string, id: string) =>
  (await (await t.call("GET", `${path(agent)}/${id}`)).json()) as Mem;
/** The memory's mark: when its check is due, null when none is. */
const due = async (agent: string, id: string) => {
  const [row] = await queryRows<{ at: string | null }>(
    t.system.services.db,
    sql`SELECT supersession_due_at AS at FROM memories WHERE agent_id = ${agent} AND id = ${id}`,
  );
  return row?.at ? new Date(row.at).toISOString() : null;
};
const asked = (text: string) =>
  t.stub.requests.filter(
    (r) =>
      r.path === "/v1/chat/completions" &&
      JSON.stringify(r.body).includes("REPLACED by the new one") &&
      JSON.stringify(r.body).includes(text),
  ).length;
/** One sweep run on the system's clock; answers its counts and the `memories.supersede` jobs it made. */
const sweep = async (sink?: SweepOptions["sink"]) => {
  const jobs: JobRequest[] = [];
  const counts = await sweepOnce({
    db: t.system.services.db,
    clock,
    sink: sink ?? { enqueue: async (js) => void jobs.push(...js) },
    afterMs: 60_000,
    limit: 100,
    embedChunk: 64,
    deliveryAttempts: 3,
  });
  return { counts, supersede: jobs.filter((j) => j.name === "memories.supersede") };
};

describe("supersession the sweep finds again", () => {
  it("a lost `memories.supersede` job is announced again by the sweep, and the check then runs", async () => {
    const agent = uniq("sup-lost");
    lose = true;
    const v1 = await post(agent, "Dana works at Umbrella in Oslo");
    t.stub.scriptChatWhen(/Dana works at Cyberdyne/, ['{"replaced": [1]}']);
    const v2 = await post(agent, "Dana works at Cyberdyne in Oslo");
    lose = false;
    // Nothing was announced: both stay marked, nothing asked.
    expect(await due(agent, v1.id)).not.toBeNull();
    expect(await due(agent, v2.id)).not.toBeNull();
    expect(asked("Dana works at Cyberdyne")).toBe(0);
    // Within `afterMs` of the write the sweep leaves them to their announcement.
    expect((await sweep()).counts.supersession).toBe(0);

    clock.set(later(61_000));
    const { supersede } = await sweep();
    expect(supersede.flatMap((j) => j.payload.items.map((i) => i.memoryId)).sort()).toEqual(
      [v1.id, v2.id].sort(),
    );
    expect((await sweep(t.system.jobs.sink)).counts.supersession).toBe(2);
    expect(await waitFor("v1 superseded", async () => (await get(agent, v1.id)).supersededBy)).toBe(v2.id);
    await waitFor(
      "both checked",
      async () => (await due(agent, v1.id)) === null && (await due(agent, v2.id)) === null,
    );
    expect(asked("Dana works at Cyberdyne")).toBe(1);
    // Checked: the next sweep finds nothing more.
    expect((await sweep()).counts.supersession).toBe(0);
  });

  it("a check deferred for the LLM budget waits for the next UTC day, then the sweep asks it", async () => {
    const agent = uniq("sup-budget");
    expect(
      (await t.call("PUT", `/v1/agents/${agent}/settings`, { llmBudget: { dailyCalls: 1 } })).status,
    ).toBe(200);
    const v1 = await post(agent, "Erik lives in Bergen with his dog");
    t.stub.scriptChatWhen(/Erik lives in Rome/, ['{"replaced": [1]}']);
    const v2 = await post(agent, "Erik lives in Rome with his dog");
    // The day's one call: v2 asked about v1.
    expect(await waitFor("v1 superseded", async () => (await get(agent, v1.id)).supersededBy)).toBe(v2.id);
    t.stub.scriptChatWhen(/Erik lives in Lima/, ['{"replaced": [1]}']);
    const v3 = await post(agent, "Erik lives in Lima with his dog now");
    // Past the budget: not asked, the mark moved to when the budget day turns.
    expect(
      await waitFor("v3 deferred", async () => (await due(agent, v3.id)) === MIDNIGHT.toISOString()),
    ).toBe(true);
    expect(asked("Erik lives in Lima")).toBe(0);
    expect((await get(agent, v2.id)).supersededBy).toBeNull();
    // Later the same day the sweep does not ask again.
    clock.set(later(60 * 60_000));
    if (clock.now() < MIDNIGHT) expect((await sweep()).counts.supersession).toBe(0);

    // The next day (past the sweep's `afterMs`), the sweep announces it and the check runs.
    clock.set(new Date(MIDNIGHT.getTime() + 2 * 60_000).toISOString());
    const first = await sweep();
    expect(first.supersede.flatMap((j) => j.payload.items.map((i) => i.memoryId))).toEqual([v3.id]);
    await sweep(t.system.jobs.sink);
    expect(await waitFor("v2 superseded", async () => (await get(agent, v2.id)).supersededBy)).toBe(v3.id);
    expect(asked("Erik lives in Lima")).toBe(1);
    expect(await waitFor("v3 checked", async () => (await due(agent, v3.id)) === null)).toBe(true);
  });

  it("marks only memories given a vector while supersession is on", async () => {
    const agent = uniq("sup-off");
    const off = { ...t.system.services, supersession: false };
    const [written] = await createMemories(off, agent, [
      { description: "Fay likes tea", importance: 3, embedding: stubEmbedding("Fay likes tea") },
    ]);
    expect(await due(agent, written?.id as string)).toBeNull();
    const [doc] = await createMemories(t.system.services, agent, [
      { description: "a section", kind: "document", importance: 3, embedding: stubEmbedding("a section") },
    ]);
    // Documents are not supersedable: never marked.
    expect(await due(agent, doc?.id as string)).toBeNull();
  });
});
