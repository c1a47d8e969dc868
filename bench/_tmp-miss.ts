import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "../src/db/client";
import { candidatesPerSource, fastRankQuery, useIndexPaths } from "../src/memory/retrieve/fast-query";
import { findHnswIndex } from "../src/memory/retrieve/hnsw-index";
import { queryVectors } from "./lib/queries";
const database = await openDatabase({ url: "postgres://postgres@127.0.0.1:5432/memstream_bench_1000000_512", dataDir: "", poolSize: 2 });
const db = database.db;
const model = "bench-clustered-512";
const cache = JSON.parse(readFileSync("bench/results/fast-path-exact-memstream_bench_1000000_512-clustered-bench-main.json", "utf8"));
const vectors = await queryVectors(db, "bench-main", model, 512, "clustered", 20);
const index = (await findHnswIndex(db, model, 512))!;
const now = new Date(cache.now);
for (let i = 0; i < 20; i++) {
  const p = { agentId: "bench-main", filters: {}, query: { vector: vectors[i]!, model, dimensions: 512 }, now, decay: 0.99, weights: { recency: 1, importance: 1, relevance: 1 }, k: 10, touch: false };
  const got = await db.transaction(async (tx) => { await useIndexPaths(tx, candidatesPerSource(10)); return queryRows<{ id: string }>(tx, fastRankQuery(p, index)); });
  const ids = new Set(got.map((g) => g.id));
  const exact: string[] = cache.exact[i];
  const missed = exact.filter((id) => !ids.has(id));
  const all = exact;
  const rows = await queryRows<Record<string, unknown>>(db, sql`
    WITH t AS (SELECT unnest(string_to_array(${all.join(",")}, ',')) AS id)
    SELECT t.id, m.importance AS imp, round((extract(epoch from ${now.toISOString()}::timestamptz - m.last_accessed_at)/3600)::numeric,1) AS hours,
      round((1 - (e.embedding <=> ${vectors[i]}::vector))::numeric, 3) AS rel,
      (SELECT count(*) FROM memories x WHERE x.agent_id='bench-main' AND x.last_accessed_at > m.last_accessed_at) AS rec_rank
    FROM t JOIN memories m ON m.id=t.id JOIN memory_embeddings e ON e.memory_id=m.id AND e.model=${model}`);
  console.log(`q${i} missed ${missed.length}`);
  for (const r of rows) console.log(`  ${missed.includes(r.id as string) ? "MISS" : "ok  "} imp ${r.imp} h ${r.hours} recrank ${r.rec_rank} rel ${r.rel}`);
}
await database.close();
