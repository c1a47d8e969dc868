import { once } from "node:events";
import { createServer } from "node:net";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { githubImports, memories } from "../../src/db/schema";
import { openImport } from "../../src/ingest/github/import/imports";
import { jobRequest } from "../../src/jobs/catalog";
import { obliterateQueues, pipelineEnv, waitFor } from "../jobs/support";
import { uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { childEnv, type Spawned, spawnEntry } from "../support/spawn";
import { fixtureRepo, startStubGithub } from "../support/stub-github";
import { startTestSystem, type TestSystem, without } from "../support/system";

// `github.import` jobs survive the process running them: a worker killed with SIGKILL mid-import
// (BullMQ hands the stalled job to the next worker) and an import whose job was lost with the
// in-process queue (the sweep announces it again) both finish from the import's cursor, each event
// stored once. Real worker processes, Redis and Postgres; GitHub is the stub. Each test has a
// database of its own: its sweep must see only its own imports.
type Import = {
  id: string;
  status: string;
  phase: string | null;
  attempts: number;
  counts: { stored: number; duplicates: number };
};

const cleanups: (() => Promise<unknown>)[] = [];
const spawned: Spawned[] = [];
afterEach(async () => {
  for (const s of spawned.splice(0)) if (s.child.exitCode === null) s.child.kill("SIGKILL");
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A stub repository (19 observations in pages of 2), a database of its own, and the env to reach both. */
async function setup(env: Record<string, string>) {
  const name = uniq("repo");
  const stub = await startStubGithub(fixtureRepo("acme", name, 3), { pageSize: 2 });
  cleanups.push(() => stub.close());
  const own = await ownDatabase("import_crash");
  cleanups.push(() => own.drop());
  const full = { ...env, DATABASE_URL: own.url, GITHUB_API_URL: stub.url, GITHUB_TOKEN: "t" };
  // No enrichment in this process: only the import is under test.
  const t = await startTestSystem({ env: full, announce: without("memories.pending") });
  cleanups.push(() => t.close());
  return { t, stub, repo: `acme/${name}`, env: full };
}

const importOf = async (t: TestSystem, agent: string, id: string) =>
  (await (await t.call("GET", `/v1/agents/${agent}/imports/github/${id}`)).json()) as Import;

const succeeded = (t: TestSystem, agent: string, id: string) =>
  waitFor(
    "the import succeeded",
    async () => {
      const i = await importOf(t, agent, id);
      return i.status === "succeeded" ? i : null;
    },
    60_000,
  );

const streamSize = async (t: TestSystem, agent: string) =>
  (await t.system.services.db.select().from(memories).where(eq(memories.agentId, agent))).length;

describe("github.import jobs", () => {
  it("killed mid-import (BullMQ): the next worker resumes at the import's cursor and stores each event once", async () => {
    const prefix = uniq("mst");
    cleanups.push(() => obliterateQueues(prefix));
    const { t, stub, repo, env } = await setup(pipelineEnv(prefix));
    const agent = uniq("gh-crash");
    // The first pull-request page is held: by then both issue pages are committed.
    const hold = stub.hold(/\/pulls\?/);
    const res = await t.call("POST", `/v1/agents/${agent}/imports/github`, { repo });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as Import;

    const worker = (extra: Record<string, string> = {}) => {
      const w = spawnEntry("src/worker.ts", childEnv(t.stub, { ...env, ...extra }));
      spawned.push(w);
      return w;
    };
    const first = worker();
    await hold.arrived;
    const mid = await importOf(t, agent, id);
    expect(mid).toMatchObject({ status: "running", phase: "pulls", attempts: 1 });
    expect(mid.counts.stored).toBeGreaterThan(0);
    first.child.kill("SIGKILL");
    await first.exited;
    hold.release();

    // The next worker serves /metrics on a port of its own (the worker's metrics app).
    const port = await freePort();
    const next = worker({ MEMSTREAM_WORKER_METRICS_PORT: String(port) });
    const done = await succeeded(t, agent, id);
    expect(done).toMatchObject({ attempts: 2, counts: { stored: 19, duplicates: 0 } });
    expect(await streamSize(t, agent)).toBe(19);
    // Resumed at the cursor: the issue pages were read once, the held pull-request page twice.
    expect(stub.requests.filter((r) => /\/issues\?/.test(r)).length).toBe(2);
    expect(stub.requests.filter((r) => /\/pulls\?/.test(r)).length).toBe(3);
    // The worker process timed the job it finished and reads the queue depth when scraped.
    await next.waitForLog(/worker metrics/);
    const lag = /^memstream_enrichment_lag_seconds_count\{field="embedding"\} [1-9]\d*$/m;
    const timed = 'memstream_job_duration_seconds_count{job="github.import",outcome="completed"} 1';
    // The job is timed once its processor returns (after the import row says succeeded), and
    // enrichment of the stored observations follows: poll until both show.
    const scraped = await waitFor("the worker's metrics", async () => {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      return lag.test(text) && text.includes(timed) ? text : null;
    });
    expect(scraped).toMatch(/^memstream_queue_jobs\{job="github.import",state="waiting"\} 0$/m);
  }, 120_000);

  it("lost with the in-process queue: the sweep announces the running import again and it finishes", async () => {
    const { REDIS_URL, MEMSTREAM_QUEUE_PREFIX, ...inProcess } = pipelineEnv();
    const { t, repo } = await setup({ ...inProcess, MEMSTREAM_SWEEP_AFTER_MS: "0" });
    const agent = uniq("gh-lost");
    // A run that died: the row says running, no job exists anywhere.
    const opened = await openImport(t.system.services, { repo, agentIds: [agent], since: null });
    await t.system.services.db
      .update(githubImports)
      .set({ status: "running", attempts: 1 })
      .where(eq(githubImports.id, opened.import.id));

    t.system.jobs.startWorkers();
    const done = await succeeded(t, agent, opened.import.id);
    expect(done).toMatchObject({ attempts: 2, counts: { stored: 19, duplicates: 0 } });
    expect(await streamSize(t, agent)).toBe(19);
  }, 120_000);

  it("an import that does not exist, or does not write to the job's agent, fails at once without a retry", async () => {
    const { REDIS_URL, MEMSTREAM_QUEUE_PREFIX, ...inProcess } = pipelineEnv();
    const { t, repo } = await setup(inProcess);
    const agent = uniq("gh-bad");
    const opened = await openImport(t.system.services, { repo, agentIds: [agent], since: null });
    t.system.jobs.startWorkers();
    await t.system.jobs.sink.enqueue([
      jobRequest("github.import", { importId: "imp_00000000000000000000", agentId: agent }),
      jobRequest("github.import", { importId: opened.import.id, agentId: uniq("someone-else") }),
    ]);
    await t.system.jobs.inProcess?.idle();
    const text = await (await t.app.request("/metrics")).text();
    // One attempt each (a retry would be a second), and the import was not run.
    expect(text).toContain('memstream_job_duration_seconds_count{job="github.import",outcome="failed"} 2');
    expect((await importOf(t, agent, opened.import.id)).status).toBe("queued");
  }, 60_000);
});

/** A port nothing listens on now (the OS picks it; closed again before the worker binds it). */
async function freePort(): Promise<number> {
  const srv = createServer().listen(0, "127.0.0.1");
  await once(srv, "listening");
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}
