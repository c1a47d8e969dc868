import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { githubImports, memories } from "../../src/db/schema";
import { openImport } from "../../src/ingest/github/import/imports";
import { jobRequest } from "../../src/jobs/catalog";
import { noEnrichment } from "../../src/memory/deps";
import { uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { childEnv, type Spawned, spawnEntry } from "../support/spawn";
import { fixtureRepo, startStubGithub } from "../support/stub-github";
import { startTestSystem, type TestSystem } from "../support/system";
import { obliterateQueues, pipelineEnv, waitFor } from "./support";

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
  const t = await startTestSystem({ env: full, enrichment: noEnrichment });
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
  (await t.system.memory.db.select().from(memories).where(eq(memories.agentId, agent))).length;

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

    const worker = () => {
      const w = spawnEntry("src/worker.ts", childEnv(t.stub, env));
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

    worker();
    const done = await succeeded(t, agent, id);
    expect(done).toMatchObject({ attempts: 2, counts: { stored: 19, duplicates: 0 } });
    expect(await streamSize(t, agent)).toBe(19);
    // Resumed at the cursor: the issue pages were read once, the held pull-request page twice.
    expect(stub.requests.filter((r) => r.includes("/issues")).length).toBe(2);
    expect(stub.requests.filter((r) => /\/pulls\?/.test(r)).length).toBe(3);
  }, 120_000);

  it("lost with the in-process queue: the sweep announces the running import again and it finishes", async () => {
    const { REDIS_URL, MEMSTREAM_QUEUE_PREFIX, ...inProcess } = pipelineEnv();
    const { t, repo } = await setup({ ...inProcess, MEMSTREAM_SWEEP_AFTER_MS: "0" });
    const agent = uniq("gh-lost");
    // A run that died: the row says running, no job exists anywhere.
    const opened = await openImport(t.system.memory, { repo, agentIds: [agent], since: null });
    await t.system.memory.db
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
    const opened = await openImport(t.system.memory, { repo, agentIds: [agent], since: null });
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
