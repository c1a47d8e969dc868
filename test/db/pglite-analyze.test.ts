import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { composeSystem, type System } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { queryRows } from "../../src/db/client";
import { silentLogger } from "../../src/lib/logger";

// PGlite has no autovacuum: without statistics a default retrieve over 10k memories was planned as
// a nested loop of every memory against every vector (docs/adr/0028). The client analyzes tables
// as they grow.
let system: System;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  system = await composeSystem(
    loadConfig({ MEMSTREAM_DATA_DIR: "memory://", MEMSTREAM_WORKERS: "off" }),
    silentLogger,
  );
  app = createApp(system.app);
}, 120_000);
afterAll(() => system.close());

const vector = (i: number) => Array.from({ length: 512 }, (_, d) => Math.sin(i * 7 + d));

async function write(agent: string, from: number, n: number) {
  const res = await app.request(`/v1/agents/${agent}/memories`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      memories: Array.from({ length: n }, (_, i) => ({
        description: `memory ${from + i} about the weather`,
        importance: 3,
        embedding: vector(from + i),
        embeddingModel: "use-lite-512",
      })),
    }),
  });
  expect(res.status).toBe(201);
}

/** What the planner knows of the two tables a ranking joins (read after the queued check). */
async function statistics() {
  return queryRows<{ relname: string; reltuples: number; agents: number | null }>(
    system.database.db,
    sql`SELECT c.relname, c.reltuples::float8 AS reltuples,
      (SELECT n_distinct::float8 FROM pg_stats s WHERE s.tablename = c.relname AND s.attname = 'agent_id') AS agents
     FROM pg_class c WHERE c.relname IN ('memories', 'memory_embeddings') ORDER BY c.relname`,
  );
}

describe("PGlite statistics", () => {
  it("are taken as the tables grow, so the planner knows each agent's rows", async () => {
    for (let batch = 0; batch < 3; batch++) await write("analyze-a", batch * 200, 200);
    expect(await statistics()).toEqual([
      { relname: "memories", reltuples: 600, agents: 1 },
      { relname: "memory_embeddings", reltuples: 600, agents: 1 },
    ]);
    // A second agent doubling the tables is seen too.
    await write("analyze-b", 0, 600);
    expect(await statistics()).toEqual([
      { relname: "memories", reltuples: 1200, agents: 2 },
      { relname: "memory_embeddings", reltuples: 1200, agents: 2 },
    ]);
  });

  it("are not retaken while a table has not grown", async () => {
    const analyzed = () =>
      queryRows<{ n: number }>(
        system.database.db,
        sql`SELECT coalesce(sum(analyze_count), 0)::int AS n FROM pg_stat_user_tables`,
      );
    const before = await analyzed();
    const ranked = await app.request("/v1/agents/analyze-a/retrieve", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ queryEmbedding: vector(3), touch: false }),
    });
    expect(ranked.status).toBe(200);
    expect(await analyzed()).toEqual(before);
  });
});
