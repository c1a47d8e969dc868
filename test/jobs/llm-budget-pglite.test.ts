import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { composeSystem, type System } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { queryRows } from "../../src/db/client";
import { silentLogger } from "../../src/lib/logger";
import type { AgentStats } from "../../src/memory/agent-stats";
import { type Stub, startStubOpenAI } from "../support/stub-openai";
import { waitFor } from "./support";

// Zero-config (embedded PGlite, in-process workers, offline embedder) with the deployment default
// budget of one chat call a day: the budget is counted in the same table and the second memory is
// scored offline, marked as the budget's.
let system: System;
let stub: Stub;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  stub = await startStubOpenAI();
  system = await composeSystem(
    loadConfig({
      MEMSTREAM_DATA_DIR: "memory://",
      EMBEDDING_PROVIDER: "offline",
      OPENAI_BASE_URL: stub.url,
      OPENAI_API_KEY: "test",
      LLM_MODEL: "stub-chat",
      REFLECTION_THRESHOLD: "0",
      MEMSTREAM_SUPERSESSION: "off",
      MEMSTREAM_LLM_DAILY_CALLS: "1",
    }),
    silentLogger,
  );
  app = createApp(system.app);
  system.jobs.startWorkers();
}, 120_000);
afterAll(async () => {
  await system?.close();
  await stub?.close();
});

const call = (method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

it("on PGlite, the deployment default admits one call a day and scores the rest offline", async () => {
  const agent = "pglite-budget";
  for (const description of ["the deploy failed at 9am", "the deploy failed again at noon"]) {
    expect((await call("POST", `/v1/agents/${agent}/memories`, { description })).status).toBe(201);
    await waitFor(
      `${description} scored`,
      async () => {
        const [row] = await queryRows<{ n: number }>(
          system.services.db,
          sql`SELECT count(*)::int AS n FROM memories WHERE agent_id = ${agent} AND importance IS NOT NULL`,
        );
        return (row?.n ?? 0) >= 1 ? true : null;
      },
      60_000,
    );
  }
  await waitFor(
    "both scored",
    async () => {
      const rows = await queryRows<{ description: string; source: string }>(
        system.services.db,
        sql`SELECT description, importance_source AS source FROM memories
            WHERE agent_id = ${agent} AND importance IS NOT NULL ORDER BY description`,
      );
      return rows.length === 2 ? rows : null;
    },
    60_000,
  ).then((rows) =>
    expect(rows.map((r) => [r.description, r.source])).toEqual([
      ["the deploy failed again at noon", "budget:offline:examples-v1"],
      ["the deploy failed at 9am", "llm:stub-chat"],
    ]),
  );
  expect(stub.calls.chat).toBe(1);
  const stats = (await (await call("GET", `/v1/agents/${agent}/stats`)).json()) as AgentStats;
  expect(stats.llmBudget).toMatchObject({
    limits: { tokens: null, calls: 1 },
    spent: { calls: 1 },
    remaining: { calls: 0 },
    exhausted: true,
  });
  expect(stats.llmBudget?.spent.tokens).toBeGreaterThan(0);
}, 120_000);
