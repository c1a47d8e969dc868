import postgres from "postgres";
import { openDatabase } from "../../src/db/client";
import { createHnswIndexSql, type HnswIndex } from "../../src/memory/retrieve/hnsw-index";

/** One synthetic table: a main agent of `size` memories, a 10k agent, and others around them. */
export type DatasetSpec = { size: number; dims: number; distributions: ("clustered" | "random")[] };

export const MAIN = "bench-main";
export const SMALL = "bench-small";
export const SMALL_SIZE = 10_000;
export const modelOf = (dims: number, dist: string) => `bench-${dist}-${dims}`;

/** The dataset's own database name (never a memstream_test* one). */
export const dbName = (s: DatasetSpec) => `memstream_bench_${s.size}_${s.dims}`;

/**
 * Creates (or reuses, when complete) the dataset's database: memories spread over six months,
 * interleaved across agents; importance 1–10 with 5% pending; vectors per distribution.
 * Clustered vectors are a topic center plus uniform noise (cosine ≈ 0.8 inside a topic), the
 * shape real memory streams have; random vectors are uniform, the worst case for HNSW.
 */
export async function ensureDataset(
  baseUrl: string,
  spec: DatasetSpec,
  log: (s: string) => void,
): Promise<string> {
  const url = new URL(baseUrl);
  const name = dbName(spec);
  url.pathname = `/${name}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  const exists = await admin`SELECT 1 FROM pg_database WHERE datname = ${name}`;
  if (exists.length === 0) await admin.unsafe(`CREATE DATABASE "${name}"`);
  await admin.end();
  const database = await openDatabase({ url: url.toString(), dataDir: "", poolSize: 1 });
  await database.migrate();
  await database.close();
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  try {
    await sql`CREATE TABLE IF NOT EXISTS bench_meta (key text PRIMARY KEY, done_at timestamptz NOT NULL DEFAULT now())`;
    await sql.unsafe("SET maintenance_work_mem = '2GB'; SET max_parallel_maintenance_workers = 1");
    if (!(await done(sql, "memories"))) {
      const t0 = Date.now();
      await sql`TRUNCATE memories CASCADE`;
      const others = Math.max(10_000, Math.round(spec.size * 0.2));
      const total = spec.size + (spec.size > SMALL_SIZE ? SMALL_SIZE : 0) + others;
      // Agent by position: main, then the 10k agent, then 20 others; rows ordered by time so
      // agents interleave on disk as they would in a shared table.
      await sql.unsafe(`
        INSERT INTO memories (id, agent_id, kind, description, created_at, last_accessed_at, importance,
          importance_status, embedding_status, embedding_model)
        SELECT 'mem_' || md5(g::text), a.agent, 'observation', 'synthetic memory ' || g, t.at,
          t.at + CASE WHEN random() < 0.02 THEN random() * (now() - t.at) ELSE interval '0' END,
          CASE WHEN random() < 0.05 THEN NULL ELSE 1 + floor(random() * 10)::int END,
          'ready', 'ready', NULL
        FROM generate_series(1, ${total}) g
        CROSS JOIN LATERAL (SELECT CASE WHEN g <= ${spec.size} THEN '${MAIN}'
          WHEN g <= ${total - others} THEN '${SMALL}' ELSE 'bench-other-' || (g % 20) END AS agent) a
        CROSS JOIN LATERAL (SELECT now() - random() * interval '180 days' AS at) t
        ORDER BY t.at`);
      await sql`UPDATE memories SET importance_status = 'pending' WHERE importance IS NULL`;
      await mark(sql, "memories");
      log(`  loaded ${total} memories in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
    for (const dist of spec.distributions) {
      const model = modelOf(spec.dims, dist);
      if (!(await done(sql, `vectors:${model}`))) {
        const t0 = Date.now();
        await sql`DELETE FROM memory_embeddings WHERE model = ${model}`;
        const topics = Math.max(50, Math.round(spec.size / 200));
        await sql.unsafe(`
          CREATE TEMP TABLE topics AS SELECT i AS id,
            (SELECT array_agg(random() * 2 - 1) FROM generate_series(1, ${spec.dims}) j WHERE i >= 0) AS c
          FROM generate_series(0, ${topics - 1}) i`);
        const vec =
          dist === "clustered"
            ? "(SELECT array_agg(x + (random() - 0.5)) FROM unnest(t.c) x)"
            : `(SELECT array_agg(random() * 2 - 1) FROM generate_series(1, ${spec.dims}) j WHERE t.id >= 0)`;
        await sql.unsafe(`
          INSERT INTO memory_embeddings (memory_id, agent_id, model, dimensions, embedding, revision)
          SELECT m.id, m.agent_id, '${model}', ${spec.dims}, ${vec}::vector, 1
          FROM memories m JOIN topics t ON t.id = abs(hashtext(m.id)) % ${topics}`);
        await sql.unsafe("DROP TABLE topics");
        await mark(sql, `vectors:${model}`);
        log(`  ${dist} ${spec.dims}-d vectors in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      }
      const ix: HnswIndex = {
        model,
        dimensions: spec.dims,
        storage: spec.dims > 1000 ? "halfvec" : "vector",
      };
      if (!(await done(sql, `hnsw:${model}`))) {
        const t0 = Date.now();
        await sql.unsafe("VACUUM ANALYZE memory_embeddings");
        await sql.unsafe(createHnswIndexSql(ix, { m: 16, efConstruction: 64 }).replace("CONCURRENTLY ", ""));
        await mark(sql, `hnsw:${model}`);
        log(`  HNSW (${ix.storage}) on ${model} built in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      }
    }
    // Datasets built before migration 0006 keep their vectors out of line until rewritten.
    const [toast] = await sql<{ bytes: string }[]>`
      SELECT pg_relation_size(reltoastrelid) AS bytes FROM pg_class WHERE oid = 'memory_embeddings'::regclass`;
    if (spec.dims <= 2000 && Number(toast?.bytes ?? 0) > 0) {
      const t0 = Date.now();
      await sql.unsafe("VACUUM FULL memory_embeddings");
      log(
        `  vectors moved in line (VACUUM FULL, HNSW rebuilt) in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
      );
    }
    await sql.unsafe("VACUUM ANALYZE memories");
    await sql.unsafe("VACUUM ANALYZE memory_embeddings");
  } finally {
    await sql.end();
  }
  return url.toString();
}

async function done(sql: postgres.Sql, key: string): Promise<boolean> {
  return (await sql`SELECT 1 FROM bench_meta WHERE key = ${key}`).length > 0;
}

async function mark(sql: postgres.Sql, key: string): Promise<void> {
  await sql`INSERT INTO bench_meta (key) VALUES (${key}) ON CONFLICT DO NOTHING`;
}
