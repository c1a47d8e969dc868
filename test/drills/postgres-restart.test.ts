import { afterAll, expect, it } from "vitest";
import { allReady, pipelineEnv, postMany, startPipeline, stats, waitFor } from "../jobs/support";
import { uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

// Postgres going away mid-stream (connections cut and refused, then back) loses no memory:
// failed jobs retry with backoff, claims lapse, and the sweep re-enqueues whatever is left.
let proxy: TcpProxy | null = null;
let cleanup: (() => Promise<void>) | null = null;
let dropOwn: (() => Promise<void>) | null = null;
afterAll(async () => {
  await proxy?.up(); // in case the test failed while the database was "down"
  await cleanup?.();
  await proxy?.close();
  await dropOwn?.();
});

it("finishes every memory after the database drops out mid-batch and comes back", async () => {
  // Its sweep (after 1 s) would take over other files' memories in the shared database.
  const own = await ownDatabase("pg_restart");
  dropOwn = own.drop;
  const db = new URL(own.url);
  proxy = await startTcpProxy({ host: db.hostname, port: Number(db.port || 5432) });
  db.host = `127.0.0.1:${proxy.port}`;
  const p = await startPipeline({
    ...pipelineEnv(),
    DATABASE_URL: db.toString(),
    EMBEDDING_BATCH_SIZE: "25",
    MEMSTREAM_JOB_ATTEMPTS: "12",
    MEMSTREAM_SWEEP_AFTER_MS: "1000",
    REFLECTION_THRESHOLD: "0",
  });
  const agent = uniq("pg-restart");
  cleanup = () => p.close([agent]);
  const { t } = p;
  t.stub.setMode({ kind: "slow", ms: 20 });
  await postMany(t, agent, 300);
  t.system.jobs.startWorkers();

  const mid = await waitFor(
    "some ready",
    async () => {
      const s = await stats(t, agent);
      return s.importance.ready > 20 ? s : null;
    },
    30_000,
  );
  expect(mid.importance.ready + mid.embedding.ready).toBeLessThan(600); // really mid-batch
  await proxy.down();
  await new Promise((r) => setTimeout(r, 1_500)); // the outage: every query fails meanwhile
  await proxy.up();

  const done = await allReady(t, agent, 300, 90_000);
  expect(done.importance.failed + done.embedding.failed).toBe(0);
  expect(done.total).toBe(300);
}, 120_000);
