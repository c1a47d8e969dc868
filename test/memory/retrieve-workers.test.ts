import { sql } from "drizzle-orm";
import pgvector from "pgvector";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { readAgentState } from "../../src/memory/retrieve/agent-state";
import { exactStatementFor } from "../../src/memory/retrieve/execute";
import { exactPlan } from "../../src/memory/retrieve/plan";
import type { RelevanceKind } from "../../src/memory/retrieve/ranking/relevance/kinds";
import type { RankParams } from "../../src/memory/retrieve/statements/params";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";
import { rankSerialAndParallel } from "../support/workers";

// Fused relevance over a whole stream gets parallel workers when the planner's statistics call
// the stream large (agent-state.ts, plan.ts). Workers must never change a ranking, and the
// estimate must follow the agent's own size.

const NOW = "2026-01-10T12:00:00.000Z";
const MODEL = uniq("workers-8d");
const WORDS =
  "alice bob deploy build failed tests coffee team berlin paris moved lives garden paint river bridge".split(
    " ",
  );
let t: TestSystem;
let seed = 11;
const rnd = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = () => WORDS[Math.floor(rnd() * WORDS.length)] as string;

beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());

/** `n` memories of a few words each, 4 topics of 8-d vectors (5% without one), times in 10-minute bins. */
async function seedStream(agent: string, n: number): Promise<void> {
  const centers = Array.from({ length: 4 }, () => Array.from({ length: 8 }, () => rnd() * 2 - 1));
  for (let done = 0; done < n; done += 500) {
    const memories = Array.from({ length: Math.min(500, n - done) }, () => {
      const c = centers[Math.floor(rnd() * 4)] as number[];
      return {
        description: `${pick()} ${pick()} ${pick()} ${pick()}`,
        createdAt: new Date(Date.parse(NOW) - Math.floor(rnd() * 90 * 144) * 600_000).toISOString(),
        importance: 1 + Math.floor(rnd() * 10),
        ...(rnd() < 0.05 ? {} : { embedding: c.map((x) => x + (rnd() - 0.5) * 0.6), embeddingModel: MODEL }),
      };
    });
    const res = await t.call("POST", `/v1/agents/${agent}/memories`, { memories });
    expect(res.status).toBe(201);
  }
}

const params = (agent: string, kind: RelevanceKind, over: Partial<RankParams> = {}): RankParams => ({
  agentId: agent,
  filters: {},
  query: {
    vector: pgvector.toSql(Array.from({ length: 8 }, () => rnd() * 2 - 1)),
    model: MODEL,
    dimensions: 8,
  },
  lexical: kind === "vector" ? undefined : { kind, text: "did the build fail in berlin?", vectorShare: 0.85 },
  now: new Date(NOW),
  decay: 0.998,
  recencyUnit: "day",
  weights: { recency: 1, importance: 0.5, relevance: 2.25 },
  k: 10,
  touch: false,
  ...over,
});

describe("parallel workers for whole-stream fused relevance", () => {
  let big: string;
  beforeAll(async () => {
    big = uniq("workers-big");
    await seedStream(big, 3_000);
    // Statistics that know the agent's rows, as a long-lived stream's would.
    await t.system.database.db.execute(sql`ANALYZE memories`);
    await t.system.database.db.execute(sql`ANALYZE memory_embeddings`);
  }, 120_000);

  it("estimates the agent's stream from the statistics, and only when asked", async () => {
    const db = t.system.database.db;
    const small = uniq("workers-small");
    await seedStream(small, 20);
    await db.execute(sql`ANALYZE memories`);
    const [est] = await queryRows<{ n: number | null }>(
      db,
      sql`SELECT memstream_agent_rows_estimate(${big}) AS n`,
    );
    // ANALYZE samples 30,000 rows; the shared test table may hold more.
    expect(Number(est?.n)).toBeGreaterThan(3_000 * 0.8);
    expect(Number(est?.n)).toBeLessThan(3_000 * 1.2);
    expect((await readAgentState(db, big, {}, 0, { largeAt: 2_000 })).largeStream).toBe(true);
    expect((await readAgentState(db, big, {}, 0, { largeAt: 5_000 })).largeStream).toBe(false);
    expect((await readAgentState(db, small, {}, 0, { largeAt: 2_000 })).largeStream).toBe(false);
    // Not estimated for requests the statement cannot serve (no text; filters or sections).
    expect((await readAgentState(db, big, {}, 0, { largeAt: 2_000, estimateLarge: false })).largeStream).toBe(
      false,
    );
    expect((await readAgentState(db, big, {}, 0, { largeAt: 2_000, countStream: false })).largeStream).toBe(
      false,
    );
    // An agent the statistics have never seen is not large.
    expect((await readAgentState(db, uniq("workers-none"), {}, 0, { largeAt: 1 })).largeStream).toBe(false);
  });

  it("gives workers to fused relevance over a large whole stream, and to the threshold statement", () => {
    const workers = (p: RankParams, large: boolean) => exactPlan(p, { small: false, large }).workers;
    for (const kind of ["hybrid", "contextual", "windowed"] as const) {
      expect(workers(params(big, kind), true)).toBe(true);
      expect(workers(params(big, kind), false)).toBe(false);
      expect(workers(params(big, kind, { filters: { kinds: ["observation"] } }), true)).toBe(false);
      const window = { start: new Date("2026-01-01T00:00:00Z"), end: new Date(NOW) };
      expect(workers(params(big, kind, { timeWindow: window }), true)).toBe(false);
      expect(workers(params(big, kind, { sections: [{ kinds: null, k: 10 }] }), true)).toBe(false);
      expect(workers(params(big, kind, { query: null }), true)).toBe(false);
    }
    expect(workers(params(big, "lexical"), true)).toBe(false);
    const vector = params(big, "vector");
    expect(exactPlan(vector, { small: false, large: false }).statement).toBe("threshold");
    expect(workers(vector, false)).toBe(true);
  });

  it.each(["hybrid", "contextual", "windowed"] as const)(
    "ranks %s relevance identically with and without workers",
    async (kind) => {
      const db = t.system.database.db;
      const statement = exactStatementFor(params(big, kind), { small: false, large: true }).sql;
      const { serial, parallel } = await rankSerialAndParallel<{
        id: string;
        score: number;
        sRelevance: number;
      }>(db, statement);
      expect(serial.gather).toBe(false);
      expect(parallel.gather).toBe(true);
      expect(parallel.rows).toHaveLength(10);
      expect(parallel.rows.map((r) => [r.id, r.score, r.sRelevance])).toEqual(
        serial.rows.map((r) => [r.id, r.score, r.sRelevance]),
      );
    },
    60_000,
  );
});
