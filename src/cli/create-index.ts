import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { loadConfig } from "../config";
import { openDatabase, queryRows } from "../db/client";
import {
  createHnswIndexSql,
  HNSW_MAX_DIMENSIONS,
  type HnswStorage,
  hnswIndexName,
} from "../memory/retrieve/hnsw-index";

// `npm run index:create -- --model <id> [--dimensions N] [--halfvec] [--m 16] [--ef-construction 64]`
// Builds the per-model HNSW index the fast retrieve path uses, CONCURRENTLY (writes continue).
// A model's index is an operations decision (build time, disk), so it is a command, not a migration.
const { values } = parseArgs({
  options: {
    model: { type: "string" },
    dimensions: { type: "string" },
    halfvec: { type: "boolean", default: false },
    m: { type: "string", default: "16" },
    "ef-construction": { type: "string", default: "64" },
    "maintenance-work-mem": { type: "string", default: "1GB" },
  },
});
const config = loadConfig();
const model = values.model ?? config.embedding.model;
if (!model) throw new Error("--model is required (or set EMBEDDING_MODEL)");
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: config.dataDir,
  distributed: config.distributed,
  poolSize: 1,
});
try {
  await database.migrate();
  const db = database.db;
  let dimensions = values.dimensions ? Number(values.dimensions) : undefined;
  if (dimensions === undefined) {
    const rows = await queryRows<{ d: number }>(
      db,
      sql`SELECT DISTINCT dimensions AS d FROM memory_embeddings WHERE model = ${model} LIMIT 2`,
    );
    if (rows.length !== 1)
      throw new Error(`cannot infer dimensions of ${model} from stored vectors; pass --dimensions`);
    dimensions = Number(rows[0]?.d);
  }
  const storage: HnswStorage = values.halfvec ? "halfvec" : "vector";
  if (dimensions > HNSW_MAX_DIMENSIONS[storage]) {
    throw new Error(
      `HNSW on ${storage} supports at most ${HNSW_MAX_DIMENSIONS[storage]} dimensions; try --halfvec`,
    );
  }
  const ix = { model, dimensions, storage };
  await db.execute(
    sql.raw(`SET maintenance_work_mem = '${values["maintenance-work-mem"].replace(/[^0-9A-Za-z]/g, "")}'`),
  );
  const started = Date.now();
  console.warn(`building ${hnswIndexName(ix)} (${storage}(${dimensions}), model ${model}) …`);
  await db.execute(
    sql.raw(
      createHnswIndexSql(ix, { m: Number(values.m), efConstruction: Number(values["ef-construction"]) }),
    ),
  );
  console.warn(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await database.close();
}
