import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "../src/db/client";
import { useIndexPaths } from "../src/memory/retrieve/fast-query";
import { queryVectors } from "./lib/queries";
const database = await openDatabase({ url: "postgres://postgres@127.0.0.1:5432/memstream_bench_1000000_512", dataDir: "", poolSize: 2 });
const db = database.db;
const model = "bench-clustered-512";
const vectors = await queryVectors(db, "bench-main", model, 512, "clustered", 20);
for (const i of [8, 9, 10, 4, 17]) {
  const v = vectors[i]!;
  const neg = `[${v.slice(1, -1).split(",").map((x) => (x.startsWith("-") ? x.slice(1) : `-${x}`)).join(",")}]`;
  const far = await db.transaction(async (tx) => {
    await useIndexPaths(tx, 100);
    return queryRows<{ d: number }>(tx, sql.raw(`SELECT 1 - (e.embedding::vector(512) <=> '${v}'::vector(512)) AS d FROM memory_embeddings e WHERE e.agent_id = 'bench-main' AND e.model = '${model}' AND e.dimensions = 512 ORDER BY e.embedding::vector(512) <=> '${neg}'::vector(512) LIMIT 5`));
  });
  const ex = await queryRows<{ lo: number; hi: number }>(db, sql`SELECT min(1 - (embedding <=> ${v}::vector)) lo, max(1 - (embedding <=> ${v}::vector)) hi FROM memory_embeddings WHERE agent_id='bench-main' AND model=${model}`);
  console.log(i, "far", far.map((f) => Number(f.d).toFixed(3)).join(" "), "exact", ex[0]);
}
await database.close();
