import type postgres from "postgres";

// Distribution on Citus (docs/adr/0011-scale-out.md), the step after the migration journal when
// MEMSTREAM_DISTRIBUTED=citus. The journal itself stays plain SQL that runs on PostgreSQL, PGlite
// and a Citus coordinator alike; this step turns the tables it created into distributed and
// reference tables, once (it skips what is already distributed, so it runs after every migrate and
// picks up the tables of later migrations). A table it does not know stops it: every table must be
// classified below (test/db/citus-compat.test.ts checks that every table with agent_id is).

/**
 * Per-agent tables: distributed on agent_id and co-located with `memories`, so a statement naming
 * one agent runs on one worker, joins and foreign keys included. `memories` comes first (the
 * others' foreign keys reference it).
 */
export const AGENT_TABLES = [
  "memories",
  "memory_embeddings",
  "memory_archive",
  "reflection_runs",
  "agent_settings",
  "documents",
  "github_event_keys",
  "outcomes",
  "lesson_revisions",
  "memory_revisions",
  "agent_lexicon",
  "retrieval_log",
  "llm_spend",
  "agent_generations",
  // Outgoing events (src/outgoing): subscriptions before their deliveries (whose foreign key names them).
  "event_subscriptions",
  "event_deliveries",
] as const;

/**
 * Small tables that are not per agent (one GitHub delivery fans out to several agents; an import
 * names a repository): reference tables, a copy on every node, so any statement can join them.
 */
export const REFERENCE_TABLES = [
  // Erase tombstones: keyed by agent but read across agents (the erase horizon, docs/adr/0027).
  "agent_erasures",
  // Erasure receipts: outlive the agent's data, read by id (docs/adr/0034).
  "erasure_receipts",
  "github_deliveries",
  "github_imports",
  // A budgeted key's spend: keyed by scope, not agent (many agents add to one row).
  "llm_scope_spend",
] as const;

export type Distribution = "citus";

type Sql = postgres.Sql;

/**
 * Distributes what the journal created and is not distributed yet. Runs on one connection of the
 * coordinator under the migration lock. Triggers on distributed tables (the lexical statistics of
 * migration 0016) need `citus.enable_unsafe_triggers`: they run on the shard and write only the
 * co-located shards of the same agent, which is what Citus allows inside a shard's trigger.
 */
export async function distributeOnCitus(sql: Sql): Promise<{ distributed: string[]; reference: string[] }> {
  const [ext] = await sql<
    { n: number }[]
  >`SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'citus'`;
  if (!ext?.n) {
    throw new Error(
      "MEMSTREAM_DISTRIBUTED=citus: the database has no citus extension (DATABASE_URL must point at a Citus coordinator; scripts/citus-cluster.sh starts one)",
    );
  }
  const tables = await sql<{ name: string; type: string | null }[]>`
    SELECT c.relname AS name, t.citus_table_type AS type
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN citus_tables t ON t.table_name = c.oid::regclass
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition`;
  const known = new Set<string>([...AGENT_TABLES, ...REFERENCE_TABLES]);
  const unknown = tables.filter((t) => !known.has(t.name)).map((t) => t.name);
  if (unknown.length > 0) {
    throw new Error(
      `MEMSTREAM_DISTRIBUTED=citus: table(s) ${unknown.join(", ")} are not classified in src/db/distribute.ts (AGENT_TABLES or REFERENCE_TABLES)`,
    );
  }
  const type = new Map(tables.map((t) => [t.name, t.type]));
  const done = { distributed: [] as string[], reference: [] as string[] };
  // For this session (the tables below carry triggers) and every later one: a migration that adds
  // a trigger to a distributed table runs in a session of its own.
  await sql`SET citus.enable_unsafe_triggers = on`;
  const [db] = await sql<{ name: string }[]>`SELECT current_database() AS name`;
  await sql.unsafe(
    `ALTER DATABASE "${(db?.name ?? "").replaceAll('"', '""')}" SET citus.enable_unsafe_triggers = on`,
  );
  // Functions first: triggers and statements call them on the workers.
  await distributeFunctions(sql);
  for (const name of REFERENCE_TABLES) {
    if (!type.has(name) || type.get(name)) continue;
    await sql`SELECT create_reference_table(${name})`;
    done.reference.push(name);
  }
  for (const name of AGENT_TABLES) {
    if (!type.has(name) || type.get(name)) continue;
    const colocate = name === "memories" ? "default" : "memories";
    await sql`SELECT create_distributed_table(${name}, 'agent_id', colocate_with => ${colocate})`;
    done.distributed.push(name);
  }
  await replicaIdentityForMoves(sql);
  return done;
}

/**
 * An online shard move (citus_rebalance_start after adding a worker) copies a shard by logical
 * replication, which refuses a table without a primary key (`agent_lexicon`, an append-only table
 * of deltas): such tables replicate whole rows (REPLICA IDENTITY FULL, which reaches the shards).
 */
async function replicaIdentityForMoves(sql: Sql): Promise<void> {
  const tables = await sql<{ name: string }[]>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_dist_partition p ON p.logicalrelid = c.oid
    WHERE n.nspname = current_schema() AND c.relreplident = 'd'
      AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary)`;
  for (const t of tables)
    await sql.unsafe(`ALTER TABLE "${t.name.replaceAll('"', '""')}" REPLICA IDENTITY FULL`);
}

/**
 * The project's functions (`memstream_*`: the lexicon triggers, the row estimate retrieve calls)
 * on every worker. Citus sends a routed statement to a worker as SQL, so a function it calls must
 * exist there; create_distributed_function copies it to every node and keeps later
 * `CREATE OR REPLACE` in step.
 */
async function distributeFunctions(sql: Sql): Promise<void> {
  const fns = await sql<{ sig: string }[]>`
    SELECT p.oid::regprocedure::text AS sig FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = current_schema() AND p.proname LIKE 'memstream\\_%'
      AND NOT EXISTS (SELECT 1 FROM pg_dist_object o WHERE o.classid = 'pg_proc'::regclass AND o.objid = p.oid)
    ORDER BY p.oid`;
  for (const f of fns) await sql`SELECT create_distributed_function(${f.sig})`;
}
