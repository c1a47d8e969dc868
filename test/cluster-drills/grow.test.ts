import { afterAll, expect, it } from "vitest";
import { allReady, startPipeline } from "../jobs/support";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import { citus, coordinator, loadAverage, startLoad, storedCounts } from "./support";

// Growing the Citus cluster while it serves: agents write and retrieve through the app (workers
// enriching), a third worker joins, the online rebalance moves shards to it by logical
// replication, and nothing acknowledged is lost or doubled, nor does any request fail.
const sql = coordinator(TEST_DATABASE_URL);
let close: (() => Promise<void>) | null = null;
afterAll(async () => {
  await close?.();
  await sql.end();
});

it("adds a worker and rebalances while agents write and retrieve: every acknowledged write once, no errors", async () => {
  const p = await startPipeline({ DATABASE_URL: TEST_DATABASE_URL, MEMSTREAM_JOB_ATTEMPTS: "12" });
  const agents = Array.from({ length: 4 }, (_, i) => uniq(`grow${i}`));
  close = () => p.close([]);
  p.t.system.jobs.startWorkers();
  const before = await sql<{ port: number; n: number }[]>`
    SELECT nodeport AS port, count(*)::int AS n FROM citus_shards
    WHERE citus_table_type = 'distributed' GROUP BY 1`;
  expect(before).toHaveLength(2);

  const load = startLoad(p.t, agents);
  await new Promise((r) => setTimeout(r, 5_000));
  load.setPhase("move");
  const moveStarted = Date.now();
  const added = citus("add-worker", new URL(TEST_DATABASE_URL).pathname.slice(1));
  const port = Number(citus("port", added));
  const [job] = await sql<{ id: number }[]>`SELECT citus_rebalance_start() AS id`;
  let state = "";
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const [s] = await sql<{ state: string }[]>`SELECT state::text FROM citus_rebalance_status()`;
    state = s?.state ?? "";
    if (["finished", "failed", "cancelled"].includes(state)) break;
    await new Promise((r) => setTimeout(r, 1_000));
  }
  const moveMs = Date.now() - moveStarted;
  load.setPhase("after");
  await new Promise((r) => setTimeout(r, 3_000));
  await load.stop();

  const moved = await sql<{ table: string; n: number }[]>`
    SELECT table_name::text AS table, count(*)::int AS n FROM citus_shards
    WHERE nodeport = ${port} AND citus_table_type = 'distributed' GROUP BY 1`;
  const stored = await storedCounts(sql, load.acked);
  const readyStarted = Date.now();
  for (const a of agents) {
    const total =
      (await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM memories WHERE agent_id = ${a}`)[0]?.n ?? 0;
    await allReady(p.t, a, total, 120_000);
  }
  const figures = {
    job: job?.id,
    state,
    moveSeconds: Math.round(moveMs / 100) / 10,
    shardsOnNewWorker: moved.reduce((s, r) => s + r.n, 0),
    memoriesShardsOnNewWorker: moved.find((r) => r.table === "memories")?.n ?? 0,
    acknowledged: stored.acknowledged,
    found: stored.found,
    before: load.summary("before"),
    during: load.summary("move"),
    after: load.summary("after"),
    enrichedWithinSeconds: Math.round((Date.now() - readyStarted) / 100) / 10,
    load: loadAverage(),
  };
  console.log(`cluster drill grow: ${JSON.stringify(figures)}`);

  expect(state).toBe("finished");
  expect(figures.memoriesShardsOnNewWorker).toBeGreaterThan(0);
  expect(stored.wrong).toEqual([]);
  expect(stored.found).toBe(stored.acknowledged);
  expect(figures.during.writes).toBeGreaterThan(10); // the load really ran through the move
  for (const phase of ["before", "move", "after"]) expect(load.summary(phase).statuses).toEqual([]);
}, 600_000);
