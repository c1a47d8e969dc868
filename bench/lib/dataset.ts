import postgres from "postgres";
import { openDatabase } from "../../src/db/client";
import { createHnswIndexSql, type HnswIndex } from "../../src/memory/retrieve/hnsw-index";

/**
 * How vectors are drawn:
 * - clustered: topics of ~200 memories (center + uniform noise, cosine ≈ 0.8 inside a topic);
 *   each query is a stored vector plus noise, so relevance alone mostly picks the winners;
 * - random: uniform vectors and queries, the worst case for HNSW;
 * - independent: 64 topics per 100k (~1,500 memories each) and queries at a topic's center,
 *   so ~1,500 memories share nearly the same relevance (a wide plateau) and recency and
 *   importance, drawn independently of the topic, decide among them: the data on which a
 *   union of per-component top lists misses the weighted sum's top k.
 */
export type Distribution = "clustered" | "random" | "independent";
export const DISTRIBUTIONS: Distribution[] = ["clustered", "random", "independent"];

/** One synthetic table: a main agent of `size` memories, a 10k agent, and others around them. */
export type DatasetSpec = { size: number; dims: number; distributions: Distribution[] };

export const MAIN = "bench-main";
export const SMALL = "bench-small";
export const SMALL_SIZE = 10_000;
export const modelOf = (dims: number, dist: string) => `bench-${dist}-${dims}`;

/** The dataset's own database name (never a memstream_test* one). */
export const dbName = (s: DatasetSpec) => `memstream_bench_${s.size}_${s.dims}`;

/** Memories per topic of the `independent` distribution (64 topics per 100k). */
const INDEPENDENT_TOPIC_SIZE = 1_560;

/**
 * Creates (or reuses, when complete) the dataset's database: memories spread over 90 days,
 * interleaved across agents, times rounded to 10 minutes (so recency ties, ~8 memories per
 * instant at 100k); importance uniform 1–10, independent of everything else, with 5% pending;
 * vectors per distribution (see `Distribution`). Topic centers are kept in `bench_topics` so
 * queries can be drawn at a topic's center.
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
    // A 1M × 512-d HNSW graph is ~3 GB: past maintenance_work_mem pgvector builds on disk, far slower.
    const mem = spec.size * spec.dims >= 500_000_000 ? "6GB" : "2GB";
    await sql.unsafe(`SET maintenance_work_mem = '${mem}'; SET max_parallel_maintenance_workers = 1`);
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
        CROSS JOIN LATERAL (SELECT date_bin('10 minutes', now() - random() * interval '90 days', '2000-01-01') AS at) t
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
        const topics =
          dist === "independent"
            ? Math.max(8, Math.round(spec.size / INDEPENDENT_TOPIC_SIZE))
            : Math.max(50, Math.round(spec.size / 200));
        await sql.unsafe(`
          CREATE TEMP TABLE topics AS SELECT i AS id,
            (SELECT array_agg(random() * 2 - 1) FROM generate_series(1, ${spec.dims}) j WHERE i >= 0) AS c
          FROM generate_series(0, ${topics - 1}) i`);
        await sql`CREATE TABLE IF NOT EXISTS bench_topics (model text, id int, c float8[], PRIMARY KEY (model, id))`;
        await sql`DELETE FROM bench_topics WHERE model = ${model}`;
        await sql.unsafe(`INSERT INTO bench_topics SELECT '${model}', id, c FROM topics`);
        const vec =
          dist === "random"
            ? `(SELECT array_agg(random() * 2 - 1) FROM generate_series(1, ${spec.dims}) j WHERE t.id >= 0)`
            : "(SELECT array_agg(x + (random() - 0.5)) FROM unnest(t.c) x)";
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
