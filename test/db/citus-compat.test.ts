import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../../src/db/client";
import { AGENT_TABLES as DISTRIBUTED, REFERENCE_TABLES } from "../../src/db/distribute";
import { createHnswIndexSql, forgetHnswIndexes, hnswIndexName } from "../../src/memory/retrieve/hnsw-index";
import { TEST_DISTRIBUTED, uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// Citus compatibility (docs/adr/0011-scale-out.md): tables distributed by agent_id need every
// primary key, unique index and foreign key to carry agent_id, and a query is routed to one
// node only when each distributed table it reads or writes is constrained to one agent.

/** Tables distributed by agent_id: the distribution step's list (src/db/distribute.ts). */
const AGENT_TABLES: string[] = [...DISTRIBUTED];
/** Per-agent tables of signed delta rows (ADR 0024): no key, so none to carry agent_id. */
const KEYLESS = ["agent_lexicon"];
/** Tables that are not per agent: reference tables (a copy on every node) under Citus. */
const COORDINATOR_TABLES: string[] = [...REFERENCE_TABLES];

let t: TestSystem;
let collecting = false;
const statements: string[] = [];
beforeAll(async () => {
  t = await startTestSystem({
    env: { LLM_MODEL: "stub-chat" },
    onQuery: (q) => {
      if (collecting) statements.push(q);
    },
  });
});
afterAll(() => t.close());

describe("Citus-compatible schema and queries", () => {
  it("classifies every table, and every key and unique index of a per-agent table carries agent_id", async () => {
    const db = t.system.database.db;
    const tables = await queryRows<{ name: string }>(
      db,
      sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
    );
    // A table a later migration adds must be classified for the distribution step.
    expect(tables.map((r) => r.name).sort()).toEqual([...AGENT_TABLES, ...COORDINATOR_TABLES].sort());
    const withAgent = await queryRows<{ name: string }>(
      db,
      sql`SELECT DISTINCT table_name AS name FROM information_schema.columns
          WHERE table_schema = current_schema() AND column_name = 'agent_id' ORDER BY 1`,
    );
    // The erase tombstones name an agent but are read across agents: a reference table (ADR 0027).
    const named = withAgent.map((r) => r.name).filter((n) => !COORDINATOR_TABLES.includes(n));
    expect(named.sort()).toEqual([...AGENT_TABLES].sort());
    const unique = await queryRows<{ tbl: string; idx: string; cols: string[] }>(
      db,
      sql`SELECT c.relname AS tbl, i.relname AS idx,
            array(SELECT a.attname FROM unnest(x.indkey) k JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k) AS cols
          FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND (x.indisunique OR x.indisprimary)`,
    );
    const perAgent = unique.filter((u) => AGENT_TABLES.includes(u.tbl));
    expect(new Set(perAgent.map((u) => u.tbl))).toEqual(
      new Set(AGENT_TABLES.filter((n) => !KEYLESS.includes(n))),
    );
    for (const u of perAgent)
      expect({ index: u.idx, cols: u.cols }).toEqual({
        index: u.idx,
        cols: expect.arrayContaining(["agent_id"]),
      });
    const fks = await queryRows<{ name: string; cols: string[]; refcols: string[] }>(
      db,
      sql`SELECT conname AS name,
            array(SELECT attname FROM pg_attribute WHERE attrelid = conrelid AND attnum = ANY (conkey)) AS cols,
            array(SELECT attname FROM pg_attribute WHERE attrelid = confrelid AND attnum = ANY (confkey)) AS refcols
          FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text IN (${sql.join(
            AGENT_TABLES.map((n) => sql`${n}`),
            sql`, `,
          )})`,
    );
    expect(fks.length).toBeGreaterThan(0);
    for (const fk of fks) {
      expect(fk.cols, fk.name).toContain("agent_id");
      expect(fk.refcols, fk.name).toContain("agent_id");
    }
  });

  it.runIf(TEST_DISTRIBUTED === "citus")(
    "on Citus: per-agent tables are distributed by agent_id and co-located, the rest are reference tables, indexes are on the shards",
    async () => {
      const db = t.system.database.db;
      const rows = await queryRows<{ name: string; type: string; col: string; colocation: number }>(
        db,
        sql`SELECT table_name::text AS name, citus_table_type AS type, distribution_column AS col,
              colocation_id AS colocation FROM citus_tables`,
      );
      const of = new Map(rows.map((r) => [r.name, r]));
      const memories = of.get("memories");
      expect(memories?.type).toBe("distributed");
      for (const name of AGENT_TABLES) {
        expect({ name, ...of.get(name) }).toMatchObject({
          name,
          type: "distributed",
          col: "agent_id",
          colocation: memories?.colocation,
        });
      }
      for (const name of COORDINATOR_TABLES)
        expect({ name, type: of.get(name)?.type }).toEqual({ name, type: "reference" });
      // An HNSW index created on the coordinator (as `npm run index:create` does) lands on every
      // shard, as does the lexical GIN index of migration 0024.
      const ix = { model: uniq("citus-shards"), dimensions: 3, storage: "vector" as const };
      await db.execute(sql.raw(createHnswIndexSql(ix, { m: 16, efConstruction: 64 })));
      const [shards] = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM citus_shards WHERE table_name = 'memories'::regclass`,
      );
      const onWorkers = async (prefix: string) => {
        const res = await queryRows<{ result: string }>(
          db,
          sql`SELECT result FROM run_command_on_workers(${`SELECT count(*) FROM pg_indexes WHERE indexname LIKE '${prefix}%'`})`,
        );
        return res.reduce((n, r) => n + Number(r.result), 0);
      };
      expect(shards?.n).toBeGreaterThan(1);
      expect(await onWorkers("memories_agent_lexemes_idx_")).toBe(shards?.n);
      expect(await onWorkers(`${hnswIndexName(ix)}_`)).toBe(shards?.n);
    },
  );

  it.runIf(TEST_DISTRIBUTED === "citus")(
    "on Citus: every distributed table can be moved online (a primary key, or whole rows replicated), on its shards too",
    async () => {
      const db = t.system.database.db;
      // citus_rebalance_start copies shards by logical replication, which needs a replica identity.
      const rows = await queryRows<{ name: string; ident: string; pk: boolean }>(
        db,
        sql`SELECT c.relname AS name, c.relreplident AS ident,
              EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary) AS pk
            FROM pg_dist_partition p JOIN pg_class c ON c.oid = p.logicalrelid`,
      );
      const unmovable = rows.filter((r) => !r.pk && r.ident !== "f").map((r) => r.name);
      expect(unmovable).toEqual([]);
      expect(rows.find((r) => r.name === "agent_lexicon")?.ident).toBe("f");
      const shards = await queryRows<{ result: string }>(
        db,
        sql`SELECT result FROM run_command_on_shards('agent_lexicon', 'SELECT relreplident FROM pg_class WHERE oid = ''%s''::regclass')`,
      );
      expect(shards.length).toBeGreaterThan(1);
      expect(new Set(shards.map((s) => s.result))).toEqual(new Set(["f"]));
    },
  );

  it("every statement on a per-agent table names the agent for each table it reads or writes", async () => {
    const model = uniq("citus-3d");
    const db = t.system.database.db;
    await db.execute(
      createHnswIndexSql({ model, dimensions: 3, storage: "vector" }, { m: 16, efConstruction: 64 }),
    );
    forgetHnswIndexes(db);
    const agent = uniq("citus");
    const path = `/v1/agents/${agent}`;
    collecting = true;
    // Representative calls: every write path, every retrieve mode, enrichment, reflection, erase.
    const one = await t.call("POST", `${path}/memories`, { description: "Ada fixed the CI job" });
    expect(one.status).toBe(201);
    const batch = await t.call("POST", `${path}/memories`, {
      memories: Array.from({ length: 20 }, (_, i) => ({
        description: `Ada note ${i}`,
        importance: 1 + (i % 10),
        embedding: [Math.cos(i), Math.sin(i), 0.5],
        embeddingModel: model,
      })),
    });
    const ids = ((await batch.json()) as { memories: { id: string }[] }).memories.map((m) => m.id);
    await t.call("POST", `${path}/memories`, {
      description: "Ada cares about CI",
      kind: "reflection",
      citations: ids.slice(0, 2),
    });
    await t.call("GET", `${path}/memories?limit=5`);
    await t.call("GET", `${path}/memories/${ids[0]}`);
    await t.call("PATCH", `${path}/memories/${ids[1]}`, { description: "Ada re-fixed the CI job" });
    await t.call("PATCH", `${path}/memories/${ids[2]}`, {
      importance: 9,
      embedding: [1, 0, 0],
      embeddingModel: model,
    });
    await t.call("DELETE", `${path}/memories/${ids[3]}`);
    const q = { queryEmbedding: [1, 0.2, 0.1], embeddingModel: model, k: 5 };
    for (const body of [
      { ...q, mode: "exact" },
      { ...q, mode: "fast" },
      { query: "CI job", relevance: "lexical" },
      { query: "CI job", relevance: "hybrid" },
      { query: "CI job", maxTokens: 200 },
      { query: "CI job", kinds: ["observation"], touch: false },
    ]) {
      const res = await t.call("POST", `${path}/retrieve`, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
    }
    // Documents: import, re-import with one section changed (kept, deleted, created), list, delete.
    const doc = (second: string) => ({
      source: "docs/ci.md",
      content: `# CI\n\nAda runs CI.\n\n# Deploy\n\n${second}`,
    });
    expect((await t.call("POST", `${path}/documents`, doc("Deploys on Fridays."))).status).toBe(201);
    await t.call("POST", `${path}/documents`, doc("Deploys on Mondays."));
    await t.call("GET", `${path}/documents`);
    await t.call("DELETE", `${path}/documents?source=docs%2Fci.md`);
    await t.call("GET", `${path}/stats`);
    await t.call("PUT", `${path}/settings`, { reflectionThreshold: 500, lessons: { minOutcomes: 2 } });
    // Outcomes, their consolidation into a lesson and its revision, and the lessons listing.
    const outcome = {
      task: "Fix the CI job",
      taskType: "ci",
      success: false,
      strategy: "retry",
      error: "timeout",
    };
    for (let i = 0; i < 3; i++) {
      expect((await t.call("POST", `${path}/outcomes`, outcome)).status).toBe(201);
    }
    await t.call("GET", `${path}/lessons?taskType=ci`);
    await t.call("POST", `${path}/reflect`);
    await t.call("GET", `${path}/reflections/runs`);
    await t.call("POST", `${path}/enrichment/retry`);
    t.system.jobs.startWorkers();
    await waitFor(async () => {
      const s = (await (await t.call("GET", `${path}/stats`)).json()) as {
        importance: { pending: number };
        embedding: { pending: number };
      };
      return s.importance.pending + s.embedding.pending === 0;
    });
    await t.call("DELETE", path);
    collecting = false;

    const onAgentTables = statements.filter((s) => references(s).length > 0);
    expect(onAgentTables.length).toBeGreaterThan(30);
    const unrouted = onAgentTables
      .filter((s) => !SWEEP.test(s))
      .filter((s) => agentPredicates(s) < references(s).length);
    expect(unrouted).toEqual([]);
  }, 120_000);
});

/** Reads and writes of per-agent tables (an INSERT carries agent_id in its rows). */
function references(statement: string): string[] {
  const names = AGENT_TABLES.join("|");
  return [...statement.matchAll(new RegExp(`\\b(?:from|join|update)\\s+"?(${names})"?\\b`, "gi"))].map(
    (m) => m[1] ?? "",
  );
}

/** Equalities on agent_id: against a parameter, or a join on agent_id with a row that has one. */
function agentPredicates(statement: string): number {
  return [...statement.matchAll(/agent_id"?\s*=/gi)].length;
}

/**
 * The sweep scans every agent on purpose (every shard under Citus): pending rows of the enrichment,
 * memories whose supersession check is due (src/memory/supersession/due.ts), agents whose retention policy or compaction is due (src/memory/retention/retain.ts), and agents holding expired
 * memories (src/memory/deletion/purge-expired.ts).
 */
const SWEEP =
  /FROM "?memories"?\s+WHERE \((?:"memories"\.)?"?importance_status"? = 'pending' OR (?:"memories"\.)?"?embedding_status"? = 'pending'\)|from "agent_settings" where \(\(?"agent_settings"\."retention" is not null|FROM "outcomes" WHERE "outcomes"\."consolidated_at" IS NULL AND|FROM memories WHERE expires_at <= \$1::timestamptz\s+ORDER BY expires_at|FROM "memories"\s+WHERE "memories"\."supersession_due_at" IS NOT NULL AND|FROM event_deliveries\s+WHERE status = 'pending' AND next_attempt_at < \$1::timestamptz/;

async function waitFor(check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}
