import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "../src/db/client";
import { useIndexPaths } from "../src/memory/retrieve/fast-query";
import { queryVectors } from "./lib/queries";
const database = await openDatabase({ url: "postgres://postgres@127.0.0.1:5432/memstream_bench_1000000_512", dataDir: "", poolSize: 2 });
const db = database.db;
const model = "bench-clustered-512";
const vectors = await queryVectors(db, "bench-main", model, 512, "clustered", 20);
const exact: Record<number, number> = { 8: -0.1994, 9: -0.1929, 10: -0.2227, 4: -0.1984, 17: -0.2023 };
for (const ef of [100, 200, 400, 800, 1000]) {
  const out: string[] = [];
  let ms = 0;
  for (const i of [8, 9, 10, 4, 17]) {
    const v = vectors[i]!;
    const neg = `[${v.slice(1, -1).split(",").map((x) => (x.startsWith("-") ? x.slice(1) : `-${x}`)).join(",")}]`;
    const t0 = performance.now();
    const far = await db.transaction(async (tx) => {
      await useIndexPaths(tx, ef);
      return queryRows<{ d: number }>(tx, sql.raw(`SELECT 1 - (e.embedding::vector(512) <=> '${v}'::vector(512)) AS d FROM memory_embeddings e WHERE e.agent_id = 'bench-main' AND e.model = '${model}' AND e.dimensions = 512 ORDER BY e.embedding::vector(512) <=> '${neg}'::vector(512) LIMIT 1`));
    });
    ms += performance.now() - t0;
    out.push(`${Number(far[0]!.d).toFixed(3)}/${exact[i]}`);
  }
  console.log(`ef ${ef}: ${(ms / 5).toFixed(1)} ms`, out.join(" "));
}
await database.close();
