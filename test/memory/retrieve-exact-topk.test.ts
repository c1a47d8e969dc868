import { sql } from "drizzle-orm";
import pgvector from "pgvector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { fullRankQuery } from "../../src/memory/retrieve/statements/full";
import type { RankParams } from "../../src/memory/retrieve/statements/params";
import { thresholdRankQuery } from "../../src/memory/retrieve/statements/threshold";
import { TEST_DISTRIBUTED, uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";
import { rankSerialAndParallel } from "../support/workers";

// The threshold query must give exactly the full ranking (ids, scores, tie order), whatever
// the data (the planner sends it only streams of MIN_STREAM memories; the statement itself has
// no size gate). Retrieve-time vectors of pending memories (read your own writes) count as in the full ranking.

const NOW = "2026-01-10T12:00:00.000Z";
const MODEL = uniq("topk-8d");
let t: TestSystem;
let seed = 7;
const rnd = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

/** 2,500 memories: 8 topics, importance independent (10% pending), 5% without a vector, times in 10-minute bins. */
async function seedStream(agent: string): Promise<string[]> {
  const centers = Array.from({ length: 8 }, () => Array.from({ length: 8 }, () => rnd() * 2 - 1));
  const ids: string[] = [];
  for (let b = 0; b < 5; b++) {
    const memories = Array.from({ length: 500 }, () => {
      const c = centers[Math.floor(rnd() * 8)] as number[];
      const at = Date.parse(NOW) - Math.floor(rnd() * 90 * 144) * 600_000;
      return {
        description: "m",
        createdAt: new Date(at).toISOString(),
        ...(rnd() < 0.1 ? {} : { importance: 1 + Math.floor(rnd() * 10) }),
        ...(rnd() < 0.05 ? {} : { embedding: c.map((x) => x + (rnd() - 0.5) * 0.6), embeddingModel: MODEL }),
      };
    });
    const res = await t.call("POST", `/v1/agents/${agent}/memories`, { memories });
    expect(res.status).toBe(201);
    ids.push(...((await res.json()) as { memories: { id: string }[] }).memories.map((m) => m.id));
  }
  return ids;
}

describe("exact ranking by threshold", () => {
  it("returns exactly the full ranking: ids, scores and tie order, for any weights and k", async () => {
    const agent = uniq("topk");
    await seedStream(agent);
    const db = t.system.database.db;
    // Memories without a stored vector, as read-your-writes embeds them at retrieve time.
    const unembedded = await queryRows<{ id: string }>(
      db,
      sql`SELECT id FROM memories m WHERE agent_id = ${agent} AND NOT EXISTS
        (SELECT 1 FROM memory_embeddings e WHERE e.agent_id = m.agent_id AND e.memory_id = m.id) ORDER BY id LIMIT 4`,
    );
    expect(unembedded).toHaveLength(4);
    const run = (q: ReturnType<typeof sql>) =>
      db.transaction(async (tx) => {
        await tx.execute(
          sql`SELECT set_config('jit', 'off', true), set_config('enable_mergejoin', 'off', true)`,
        );
        return queryRows<{ id: string; score: number }>(tx, q);
      });
    let compared = 0;
    for (const weights of [
      { recency: 1, importance: 1, relevance: 1 },
      { recency: 0, importance: 1, relevance: 1 },
      { recency: 3, importance: 0.5, relevance: 1 },
      { recency: 0, importance: 0, relevance: 1 },
      { recency: 1, importance: 1, relevance: 0 },
      { recency: 0, importance: 1, relevance: 0 },
    ]) {
      for (const k of [1, 10, 50]) {
        const query = Array.from({ length: 8 }, () => rnd() * 2 - 1);
        // Every other ranking: two of them freshly embedded right next to the query.
        const fresh = (compared % 2 === 0 ? unembedded.slice(0, 2) : []).map((m) => ({
          id: m.id,
          vector: pgvector.toSql(query.map((x) => x + 0.01)),
          dimensions: 8,
        }));
        const p: RankParams = {
          fresh,
          agentId: agent,
          filters: {},
          query: { vector: pgvector.toSql(query), model: MODEL, dimensions: 8 },
          now: new Date(NOW),
          decay: 0.99,
          weights,
          k,
          touch: false,
        };
        const want = await run(fullRankQuery(p));
        const got = await run(thresholdRankQuery(p));
        expect(got.map((r) => [r.id, r.score])).toEqual(want.map((r) => [r.id, r.score]));
        if (fresh.length > 0 && weights.recency + weights.importance === 0 && k >= 10) {
          expect(want.map((r) => r.id)).toEqual(expect.arrayContaining(fresh.map((f) => f.id)));
        }
        expect(want).toHaveLength(k);
        compared++;
      }
    }
    expect(compared).toBe(18);
  }, 120_000);

  // Not on Citus (docs/adr/0011-scale-out.md): the statement runs on a worker, whose plan the
  // coordinator's EXPLAIN does not show, and the SET LOCAL that allows parallel workers stays on the
  // coordinator; the ranking is the same, only without intra-query parallelism.
  it.skipIf(TEST_DISTRIBUTED === "citus")(
    "gives the same ranking when its scans run in parallel workers (retrieve allows them for it)",
    async () => {
      const agent = uniq("topk-par");
      await seedStream(agent);
      const db = t.system.database.db;
      // Statistics that know the new agent's 2,500 rows, as a long-lived stream's would.
      await db.execute(sql`ANALYZE memory_embeddings`);
      await db.execute(sql`ANALYZE memories`);
      const query = Array.from({ length: 8 }, () => rnd() * 2 - 1);
      const p: RankParams = {
        agentId: agent,
        filters: {},
        query: { vector: pgvector.toSql(query), model: MODEL, dimensions: 8 },
        now: new Date(NOW),
        decay: 0.99,
        weights: { recency: 1, importance: 1, relevance: 1 },
        k: 10,
        touch: false,
      };
      const statement = thresholdRankQuery(p);
      const { serial, parallel } = await rankSerialAndParallel<{ id: string; score: number }>(db, statement);
      expect(serial.gather).toBe(false);
      expect(parallel.gather).toBe(true);
      expect(parallel.rows.map((r) => [r.id, r.score])).toEqual(serial.rows.map((r) => [r.id, r.score]));
      expect(parallel.rows).toHaveLength(10);
    },
    60_000,
  );
});
