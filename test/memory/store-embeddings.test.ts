import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { createMemories } from "../../src/memory/create-memories";
import { storeEmbeddings } from "../../src/memory/enrichment/store";
import { uniq } from "../support/env";
import { stubEmbedding } from "../support/stub-vectors";
import { startTestSystem, type TestSystem, without } from "../support/system";

// An embed job's chunk holds several memories of several agents: stored in one transaction, every
// vector lands. On Citus a chunk of more than one row failed every time (its `FOR SHARE` ran on
// several shards at once), so batch writes there never got vectors; `npm run test:citus` runs this.
let t: TestSystem;
const agents = [uniq("store-vec-a"), uniq("store-vec-b")];
beforeAll(async () => {
  t = await startTestSystem({ announce: without("memories.pending") });
});
afterAll(async () => {
  for (const a of agents) await t?.call("DELETE", `/v1/agents/${a}`);
  await t?.close();
});

it("stores a chunk of several memories of two agents: every row ready, one vector each", async () => {
  const items = [];
  for (const agentId of agents) {
    const made = await createMemories(
      t.system.services,
      agentId,
      Array.from({ length: 5 }, (_, i) => ({ description: `chunk note ${i}` })),
    );
    items.push(
      ...made.map((m) => ({ agentId, memoryId: m.id, revision: 1, vector: stubEmbedding(m.description) })),
    );
  }
  const stored = await storeEmbeddings(t.system.services.db, "stub-embed@64", items);
  expect(stored.map((s) => s.id).sort()).toEqual(items.map((i) => i.memoryId).sort());
  const rows = await queryRows<{ agent: string; n: number; ready: number }>(
    t.system.services.db,
    sql`SELECT m.agent_id AS agent, count(e.memory_id)::int AS n,
          count(*) FILTER (WHERE m.embedding_status = 'ready')::int AS ready
        FROM memories m LEFT JOIN memory_embeddings e ON e.agent_id = m.agent_id AND e.memory_id = m.id
        WHERE m.agent_id IN (${agents[0]}, ${agents[1]}) GROUP BY m.agent_id ORDER BY m.agent_id`,
  );
  expect(rows).toEqual([...agents].sort().map((agent) => ({ agent, n: 5, ready: 5 })));
});
