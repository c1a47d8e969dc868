import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { backfillEmbeddings } from "../../src/jobs/backfill";
import { createOpenAIClient } from "../../src/providers/openai-client";
import { createOpenAIEmbedder } from "../../src/providers/openai-embedder";
import { uniq } from "../support/env";
import { allReady, postMany, startPipeline } from "./support";

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

describe("backfill to a new embedding model", () => {
  it("adds vectors of the new model beside the old ones, resumes, and redoes nothing", async () => {
    const p = await startPipeline();
    const agent = uniq("backfill");
    cleanup = () => p.close([agent]);
    const { t } = p;
    await postMany(t, agent, 30);
    t.system.jobs.startWorkers();
    await allReady(t, agent, 30);

    const embedder = createOpenAIEmbedder({
      client: createOpenAIClient({ baseURL: t.stub.url, maxRetries: 0 }),
      model: "stub-embed-v2",
      dimensions: 32,
    });
    const db = t.system.database.db;
    // The first run dies on its second page (provider down); the rerun resumes with the rest.
    let calls = 0;
    const flaky = {
      ...embedder,
      modelId: embedder.modelId,
      embed: (texts: string[]) => (++calls === 2 ? Promise.reject(new Error("down")) : embedder.embed(texts)),
    };
    const progress: number[] = [];
    await expect(
      backfillEmbeddings({
        db,
        embedder: flaky,
        agentId: agent,
        batch: 10,
        onProgress: (x) => progress.push(x.done),
      }),
    ).rejects.toThrow("down");
    expect(progress).toEqual([0, 10]);
    const resumed = await backfillEmbeddings({ db, embedder, agentId: agent, batch: 10 });
    expect(resumed).toMatchObject({ done: 20, total: 20 });
    const again = await backfillEmbeddings({ db, embedder, agentId: agent, batch: 10 });
    expect(again).toMatchObject({ done: 0, total: 0 });
    expect(t.stub.calls.embeddings).toBe(1 + 1 + 2); // the workers' chunk, page 1, then pages 2 and 3

    const rows = await queryRows<{ model: string; n: number }>(
      db,
      sql`SELECT model, count(*)::int AS n FROM memory_embeddings WHERE agent_id = ${agent} GROUP BY model ORDER BY model`,
    );
    expect(rows.map((r) => [r.model, Number(r.n)])).toEqual([
      ["openai:stub-embed-v2@32", 30],
      ["openai:stub-embed@64", 30],
    ]);
    // Retrieval still uses the configured model.
    const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, { query: "note 3", k: 1 });
    expect(res.status).toBe(200);
  });
});
