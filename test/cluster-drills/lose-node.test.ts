import { afterAll, beforeAll, expect, it } from "vitest";
import { allReady, startPipeline, waitFor } from "../jobs/support";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import {
  citus,
  coordinator,
  loadAverage,
  nodeOnPort,
  queueDepth,
  startLoad,
  storedCounts,
  workerPortOf,
} from "./support";

// Losing a node mid-load: a Citus worker stopped as by a crash, then the coordinator. The agents
// whose shards are on the lost worker get a 503 `unavailable` that names nothing internal, the
// others keep working; when the node is back, everything acknowledged is there once and the
// queues drain (failed enrichment jobs retry with backoff; the sweep re-asks what is left).
const sql = coordinator(TEST_DATABASE_URL);
let p: Awaited<ReturnType<typeof startPipeline>>;
let stopped: string | null = null;
beforeAll(async () => {
  p = await startPipeline({
    DATABASE_URL: TEST_DATABASE_URL,
    MEMSTREAM_JOB_ATTEMPTS: "12",
    MEMSTREAM_SWEEP_AFTER_MS: "5000",
  });
  p.t.system.jobs.startWorkers();
});
afterAll(async () => {
  if (stopped) citus("start-node", stopped); // the drill failed while the node was down
  await p?.close([]);
  await sql.end();
});

/** Nothing of the cluster's inside in an answer: no host, port, node or shard. */
const INTERNAL = /127\.0\.0\.1|localhost|:\d{4,5}\b|worker|node|shard|citus|remote|connection to/i;

/** Keeps the load going until a write of each of these agents is acknowledged again. */
async function untilServing(load: ReturnType<typeof startLoad>, agents: string[], timeoutMs: number) {
  const seen = new Map(agents.map((a) => [a, load.acked.get(a)?.length ?? 0]));
  await waitFor(
    "writes acknowledged again",
    async () => agents.every((a) => (load.acked.get(a)?.length ?? 0) > (seen.get(a) ?? 0)),
    timeoutMs,
  );
}

async function drained(agents: string[]) {
  const started = Date.now();
  for (const a of agents) {
    const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM memories WHERE agent_id = ${a}`;
    await allReady(p.t, a, row?.n ?? 0, 180_000);
  }
  const depth = await waitFor(
    "queues drained",
    async () => {
      const d = await queueDepth(p.prefix);
      return d.pending === 0 ? d : null;
    },
    60_000,
  );
  return { seconds: Math.round((Date.now() - started) / 100) / 10, failedJobs: depth.failed };
}

it("stops a worker mid-load: its agents get 503 unavailable, the others keep working, nothing acknowledged is lost", async () => {
  // Two agents on the worker that goes away, two on the others.
  const first = uniq("lose");
  const victimPort = await workerPortOf(sql, first);
  const on: string[] = [first];
  const off: string[] = [];
  for (let i = 0; on.length < 2 || off.length < 2; i++) {
    const a = uniq(`lose${i}`);
    const list = (await workerPortOf(sql, a)) === victimPort ? on : off;
    if (list.length < 2) list.push(a);
  }
  const victim = nodeOnPort(victimPort);
  const load = startLoad(p.t, [...on, ...off]);
  await new Promise((r) => setTimeout(r, 4_000));

  load.setPhase("down");
  citus("stop-node", victim);
  stopped = victim;
  await new Promise((r) => setTimeout(r, 8_000));
  load.setPhase("back");
  citus("start-node", victim);
  stopped = null;
  const backAt = Date.now();
  await untilServing(load, on, 60_000);
  const servingAfterMs = Date.now() - backAt;
  await new Promise((r) => setTimeout(r, 2_000));
  await load.stop();

  const stored = await storedCounts(sql, load.acked);
  const drain = await drained([...on, ...off]);
  const down = load.samples.filter((s) => s.phase === "down" && on.includes(s.agent));
  const figures = {
    victim,
    acknowledged: stored.acknowledged,
    found: stored.found,
    before: load.summary("before"),
    downItsAgents: load.summary("down", on),
    downOtherAgents: load.summary("down", off),
    back: load.summary("back"),
    servingAgainSeconds: Math.round(servingAfterMs / 100) / 10,
    drainedWithinSeconds: drain.seconds,
    failedJobs: drain.failedJobs,
    load: loadAverage(),
  };
  console.log(`cluster drill lose-worker: ${JSON.stringify(figures)}`);

  const failures = down.filter((s) => s.status !== 200 && s.status !== 201);
  expect(failures.length).toBeGreaterThan(0); // the worker really was gone for these agents
  for (const f of failures) {
    expect({ status: f.status, code: f.code }).toEqual({ status: 503, code: "unavailable" });
    expect(f.message).not.toMatch(INTERNAL);
  }
  expect(figures.downOtherAgents.errors).toBe(0);
  expect(figures.downOtherAgents.writes).toBeGreaterThan(5);
  expect(stored.wrong).toEqual([]);
  expect(stored.found).toBe(stored.acknowledged);
});

it("restarts the coordinator mid-load: 503 unavailable meanwhile, then everything acknowledged is there and the queues drain", async () => {
  const agents = Array.from({ length: 3 }, (_, i) => uniq(`coord${i}`));
  const load = startLoad(p.t, agents);
  await new Promise((r) => setTimeout(r, 4_000));

  load.setPhase("down");
  citus("stop-node", "coordinator");
  stopped = "coordinator";
  await new Promise((r) => setTimeout(r, 5_000));
  load.setPhase("back");
  citus("start-node", "coordinator");
  stopped = null;
  const backAt = Date.now();
  await untilServing(load, agents, 60_000);
  const servingAfterMs = Date.now() - backAt;
  await new Promise((r) => setTimeout(r, 2_000));
  await load.stop();

  const stored = await storedCounts(sql, load.acked);
  const drain = await drained(agents);
  const figures = {
    acknowledged: stored.acknowledged,
    found: stored.found,
    before: load.summary("before"),
    down: load.summary("down"),
    back: load.summary("back"),
    servingAgainSeconds: Math.round(servingAfterMs / 100) / 10,
    drainedWithinSeconds: drain.seconds,
    failedJobs: drain.failedJobs,
    load: loadAverage(),
  };
  console.log(`cluster drill coordinator-restart: ${JSON.stringify(figures)}`);

  const failures = load.samples.filter((s) => s.status !== 200 && s.status !== 201);
  expect(figures.down.errors).toBeGreaterThan(0);
  for (const f of failures) {
    expect({ status: f.status, code: f.code }).toEqual({ status: 503, code: "unavailable" });
    expect(f.message).not.toMatch(INTERNAL);
  }
  expect(stored.wrong).toEqual([]);
  expect(stored.found).toBe(stored.acknowledged);
});
