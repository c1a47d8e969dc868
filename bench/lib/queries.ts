import { sql } from "drizzle-orm";
import pgvector from "pgvector";
import { type Db, queryRows } from "../../src/db/client";

/**
 * Query vectors: for clustered data, a stored vector plus topic-sized noise; for independent
 * data, a topic's center plus a little noise (query i → topic i); for random data, uniform.
 */
export async function queryVectors(
  db: Db,
  agent: string,
  model: string,
  dims: number,
  dist: string,
  count: number,
): Promise<string[]> {
  let seed = 42;
  const rnd = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  if (dist === "random") {
    return Array.from({ length: count }, () =>
      pgvector.toSql(Array.from({ length: dims }, () => rnd() * 2 - 1)),
    );
  }
  if (dist === "independent") {
    const centers = await queryRows<{ c: number[] }>(
      db,
      sql`SELECT c FROM bench_topics WHERE model = ${model} ORDER BY id LIMIT ${count}`,
    );
    return Array.from({ length: count }, (_, i) =>
      pgvector.toSql((centers[i % centers.length]?.c ?? []).map((x) => x + (rnd() - 0.5) / 5)),
    );
  }
  const rows = await queryRows<{ e: string }>(
    db,
    sql`SELECT embedding::text AS e FROM memory_embeddings WHERE agent_id = ${agent} AND model = ${model}
        ORDER BY memory_id LIMIT ${count}`,
  );
  return rows.map((r) => pgvector.toSql((pgvector.fromSql(r.e) as number[]).map((x) => x + rnd() - 0.5)));
}
