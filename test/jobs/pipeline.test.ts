import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { uniq } from "../support/env";
import { stubEmbedding } from "../support/stub-openai";
import { allReady, getMemory, postMany, startPipeline, stats, vectorCount, waitFor } from "./support";

// Real Postgres, real Redis (a queue prefix per system), the real `openai` client against the stub.
let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

async function setup(env: Record<string, string> = {}) {
  const p = await startPipeline(env);
  const agent = uniq("enrich");
  cleanup = () => p.close([agent]);
  return { ...p, agent, path: `/v1/agents/${agent}` };
}

describe("enrichment pipeline (BullMQ)", () => {
  it("fills in a batch of 500 memories, one embedding call per chunk and one chat call per memory", async () => {
    const { t, agent } = await setup({ EMBEDDING_BATCH_SIZE: "100" });
    await postMany(t, agent, 500, (i) => `observation number ${i} about the build`);
    expect((await stats(t, agent)).importance.pending).toBe(500);
    t.system.jobs.startWorkers();
    const s = await allReady(t, agent, 500, 60_000);
    expect(s.importance.failed + s.embedding.failed).toBe(0);
    expect(await vectorCount(t, agent)).toBe(500);
    expect(t.stub.calls.embeddings).toBe(5);
    expect(t.stub.calls.chat).toBe(500);
  });

  it("stores the model id with each vector and the scorer id with each importance", async () => {
    const { t, agent } = await setup();
    const [id] = await postMany(t, agent, 1, () => "the deploy failed at noon");
    t.system.jobs.startWorkers();
    await allReady(t, agent, 1);
    const m = await getMemory(t, agent, id as string);
    expect(m.embeddingModel).toBe("openai:stub-embed@64");
    expect(m.importance).toBe(8);
    const [row] = await queryRows<{ model: string; source: string }>(
      t.system.database.db,
      sql`SELECT e.model, m.importance_source AS source FROM memory_embeddings e JOIN memories m ON m.id = e.memory_id WHERE e.memory_id = ${id}`,
    );
    expect(row).toEqual({ model: "openai:stub-embed@64", source: "llm:stub-chat" });
  });

  it("leaves a memory deleted while its job is queued deleted", async () => {
    const { t, agent, path } = await setup();
    const ids = await postMany(t, agent, 10);
    const gone = ids[3] as string;
    expect((await t.call("DELETE", `${path}/memories/${gone}`)).status).toBe(200);
    t.system.jobs.startWorkers();
    await allReady(t, agent, 9);
    expect((await t.call("GET", `${path}/memories/${gone}`)).status).toBe(404);
    const [row] = await queryRows<{ n: number }>(
      t.system.database.db,
      sql`SELECT (SELECT count(*) FROM memories WHERE id = ${gone}) + (SELECT count(*) FROM memory_embeddings WHERE memory_id = ${gone}) AS n`,
    );
    expect(Number(row?.n)).toBe(0);
    expect(await vectorCount(t, agent)).toBe(9);
  });

  it('retries an LLM answering "very important!", then marks it failed with the reason; retry puts it back', async () => {
    const { t, agent, path } = await setup();
    t.stub.setMode({ kind: "nonsense" });
    const [id] = await postMany(t, agent, 1, () => "lunch with Sam");
    t.system.jobs.startWorkers();
    const s = await waitFor("importance failed", async () => {
      const st = await stats(t, agent);
      return st.importance.failed === 1 ? st : null;
    });
    expect(s.embedding.ready).toBe(1);
    expect(t.stub.calls.chat).toBe(3);
    const m = await getMemory(t, agent, id as string);
    expect(m.status.importance).toBe("failed");
    expect(m.errors?.importance).toContain('"very important!"');
    expect(m.errors?.importance).toContain("no rating 1..10");

    t.stub.setMode({ kind: "ok" });
    const retry = await t.call("POST", `${path}/enrichment/retry`);
    expect(retry.status).toBe(200);
    expect((await retry.json()) as unknown).toEqual({ importance: 1, embedding: 0 });
    await allReady(t, agent, 1);
    const after = await getMemory(t, agent, id as string);
    expect(after.importance).toBe(2);
    expect(after.errors).toBeUndefined();
  });

  it("backs off on 429 and then succeeds", async () => {
    const { t, agent } = await setup();
    t.stub.setMode({ kind: "status", status: 429, times: 3 });
    await postMany(t, agent, 20);
    t.system.jobs.startWorkers();
    const s = await allReady(t, agent, 20);
    expect(s.embedding.failed + s.importance.failed).toBe(0);
    // The three 429s were answered to some calls, which were made again after a backoff.
    expect(t.stub.calls.embeddings + t.stub.calls.chat).toBe(1 + 20 + 3);
  });

  it("marks rows failed with the provider's error once a job runs out of attempts", async () => {
    const { t, agent } = await setup({ MEMSTREAM_JOB_ATTEMPTS: "2" });
    t.stub.setMode({ kind: "status", status: 500 });
    const [id] = await postMany(t, agent, 1);
    t.system.jobs.startWorkers();
    const s = await waitFor("both failed", async () => {
      const st = await stats(t, agent);
      return st.importance.failed === 1 && st.embedding.failed === 1 ? st : null;
    });
    expect(s.total).toBe(1);
    const m = await getMemory(t, agent, id as string);
    expect(m.errors?.embedding).toContain("500");
    expect(m.errors?.importance).toContain("500");
  });

  it("lets a changed description supersede the old job's result", async () => {
    const { t, agent, path } = await setup();
    t.stub.setMode({ kind: "slow", ms: 400 });
    const [id] = await postMany(t, agent, 1, () => "the old text about lunch");
    t.system.jobs.startWorkers();
    // Wait until the old text is with the provider, then change it.
    await waitFor("old text in flight", async () => t.stub.calls.embeddings > 0 && t.stub.calls.chat > 0);
    const patch = await t.call("PATCH", `${path}/memories/${id}`, { description: "the server crashed" });
    expect(patch.status).toBe(200);
    await allReady(t, agent, 1);
    const m = await getMemory(t, agent, id as string);
    expect(m.description).toBe("the server crashed");
    expect(m.importance).toBe(8);
    const [row] = await queryRows<{ revision: number; embedding: string }>(
      t.system.database.db,
      sql`SELECT revision, embedding::text FROM memory_embeddings WHERE memory_id = ${id}`,
    );
    expect(row?.revision).toBe(2);
    const stored = JSON.parse(row?.embedding ?? "[]") as number[];
    const expected = stubEmbedding("the server crashed", 64);
    expect(stored.map((x) => x.toFixed(4))).toEqual(expected.map((x) => x.toFixed(4)));
  });
});
