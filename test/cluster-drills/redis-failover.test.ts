import { Redis } from "ioredis";
import { afterAll, expect, it } from "vitest";
import { allReady, postMany, startPipeline, waitFor } from "../jobs/support";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import { coordinator, loadAverage, queueDepth, startLoad, storedCounts } from "./support";

// A Redis Cluster primary lost mid-batch: the primary holding the queues' slot (one hash tag, so
// one primary) is shut down while enrichment jobs run; its replica takes over. The API keeps
// accepting writes (they are in PostgreSQL first; an enqueue that fails is the sweep's to redo),
// every memory is enriched, and no job's effect is doubled (one vector per memory, one row per id).
const url = process.env.TEST_FAILOVER_REDIS_URL;
const sql = coordinator(TEST_DATABASE_URL);
let close: (() => Promise<void>) | null = null;
afterAll(async () => {
  // Closing the system after its seed node went away once waited past the 120 s hook bound (not yet
  // understood; see docs/operations.md). The drill's assertions are made by then, so the wait is bounded.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.warn("cluster drill redis-failover: the system did not close within 60 s after the failover");
      resolve();
    }, 60_000);
  });
  await Promise.race([close?.(), late]).finally(() => clearTimeout(timer));
  await sql.end();
});

/** host:port of the primary serving `slot`, as the cluster at `port` sees it (null while none). */
async function primaryOf(redis: Redis, slot: number): Promise<string | null> {
  const nodes = String(await redis.call("CLUSTER", "NODES"));
  for (const line of nodes.split("\n")) {
    const [, addr, flags, , , , , state, ...slots] = line.split(" ");
    if (!flags?.includes("master") || flags.includes("fail") || state !== "connected") continue;
    for (const range of slots) {
      const [lo, hi] = range.split("-").map(Number);
      if (lo !== undefined && slot >= lo && slot <= (hi ?? lo)) return (addr ?? "").split("@")[0] ?? null;
    }
  }
  return null;
}

it("fails over the queues' Redis primary mid-batch: writes keep being accepted, nothing lost or doubled", async () => {
  if (!url) throw new Error("TEST_FAILOVER_REDIS_URL: run through npm run test:cluster-drills");
  // The hardest case: the queues' primary is the very node REDIS_URL names (the processes' seed).
  const seed = new Redis(url);
  const seedAddress = new URL(url).host;
  const base = uniq("failover");
  let tag = base;
  let slot = -1;
  for (let i = 0; i < 1000; i++) {
    tag = `${base}-${i}`;
    slot = Number(await seed.call("CLUSTER", "KEYSLOT", tag));
    if ((await primaryOf(seed, slot)) === seedAddress) break;
  }
  const primary = await primaryOf(seed, slot);
  const other = await primaryOf(seed, (slot + 8192) % 16384);
  seed.disconnect();
  expect(primary).toBe(seedAddress);
  expect(other).not.toBe(primary);
  const [host, port] = (primary ?? "").split(":");

  const p = await startPipeline({
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: url,
    REDIS_CLUSTER: "true",
    MEMSTREAM_QUEUE_PREFIX: `{${tag}}`,
    MEMSTREAM_JOB_ATTEMPTS: "12",
    MEMSTREAM_SWEEP_AFTER_MS: "3000",
    EMBEDDING_BATCH_SIZE: "25",
  });
  const batchAgents = Array.from({ length: 2 }, (_, i) => uniq(`fo-batch${i}`));
  const loadAgents = Array.from({ length: 2 }, (_, i) => uniq(`fo-load${i}`));
  close = () => p.close([]);
  const { t } = p;
  t.stub.setMode({ kind: "slow", ms: 20 });
  const batchIds = new Map<string, string[]>();
  for (const a of batchAgents) batchIds.set(a, await postMany(t, a, 150));

  t.system.jobs.startWorkers();
  const load = startLoad(t, loadAgents);
  const embedded = async () => {
    const [row] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM memories WHERE agent_id = ANY(${batchAgents}) AND embedding_status = 'ready'`;
    return row?.n ?? 0;
  };
  await waitFor("the batch under way", async () => (await embedded()) > 20, 60_000);
  const embeddedAtKill = await embedded();

  load.setPhase("failover");
  const killedAt = Date.now();
  const victim = new Redis({ host, port: Number(port), lazyConnect: true, maxRetriesPerRequest: 0 });
  await victim.connect();
  await victim.call("SHUTDOWN", "NOSAVE").catch(() => {}); // the connection drops with the server
  victim.disconnect();
  // Another primary reports the slot's new primary (the replica, promoted).
  const [otherHost, otherPort] = (other ?? "").split(":");
  const watcher = new Redis({ host: otherHost, port: Number(otherPort) });
  const promoted = await waitFor(
    "the replica promoted",
    async () => {
      const now = await primaryOf(watcher, slot).catch(() => null);
      return now && now !== primary ? now : null;
    },
    60_000,
  );
  const failoverMs = Date.now() - killedAt;
  watcher.disconnect();
  load.setPhase("after");
  await new Promise((r) => setTimeout(r, 3_000));
  await load.stop();

  const all = new Map([...batchIds, ...load.acked]);
  const stored = await storedCounts(sql, all);
  const readyStarted = Date.now();
  for (const [a, ids] of all) await allReady(t, a, ids.length, 180_000);
  const depth = await waitFor(
    "queues drained",
    async () => {
      // The seed node may be the primary that went away: ask the promoted one.
      const d = await queueDepth(p.prefix, `redis://${promoted}`, true);
      return d.pending === 0 ? d : null;
    },
    60_000,
  );
  // Exactly one vector per memory: none missing, and no job's retry stored a second one.
  const vectors = await sql<{ id: string; n: number }[]>`
    SELECT m.id, count(e.memory_id)::int AS n FROM memories m
    LEFT JOIN memory_embeddings e ON e.agent_id = m.agent_id AND e.memory_id = m.id
    WHERE m.agent_id = ANY(${[...all.keys()]}) GROUP BY m.id HAVING count(e.memory_id) <> 1`;
  const figures = {
    promoted: promoted !== primary,
    failoverSeconds: Math.round(failoverMs / 100) / 10,
    batchEmbeddedAtKill: `${embeddedAtKill}/${2 * 150}`,
    acknowledged: stored.acknowledged,
    found: stored.found,
    before: load.summary("before"),
    during: load.summary("failover"),
    after: load.summary("after"),
    enrichedWithinSeconds: Math.round((Date.now() - readyStarted) / 100) / 10,
    failedJobs: depth.failed,
    embeddingCalls: t.stub.calls.embeddings,
    chatCalls: t.stub.calls.chat,
    memories: stored.acknowledged,
    load: loadAverage(),
  };
  console.log(`cluster drill redis-failover: ${JSON.stringify(figures)}`);

  expect(embeddedAtKill).toBeLessThan(2 * 150); // really mid-batch
  expect(stored.wrong).toEqual([]);
  expect(stored.found).toBe(stored.acknowledged);
  expect(vectors).toEqual([]);
  expect(figures.during.writes).toBeGreaterThan(0);
  for (const phase of ["before", "failover", "after"]) expect(load.summary(phase).statuses).toEqual([]);
});
