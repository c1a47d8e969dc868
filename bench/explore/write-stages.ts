/**
 * Where a batch write's database time goes, statement by statement, in one process (no HTTP):
 * `npx tsx bench/explore/write-stages.ts [--dims 512] [--batches 100,1000] [--runs 15]`.
 * For each batch size it times BEGIN, the `memories` INSERT, the vector COPY and COMMIT of
 * `insertMemoryRows` (the code `POST /memories` runs), under variants run alternately in the same
 * loop: the connection as the service opens it, the same with `synchronous_commit = off` for
 * the transaction (separates the WAL flush from the rest of COMMIT), and on a socket with Nagle's
 * algorithm on (postgres-js's own socket, which the service used before src/db/socket.ts). Prints medians per stage.
 * Uses its own database (`memstream_bench_write_stages`, emptied per batch size).
 */
import { connect } from "node:net";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { type Db, openDatabase } from "../../src/db/client";
import * as schema from "../../src/db/schema";
import { newId } from "../../src/lib/ids";
import { type CopyVector, copyVectors } from "../../src/memory/copy-vectors";
import { type InsertRow, insertMemoryRows } from "../../src/memory/insert-rows";
import { quantile } from "../lib/stats";

const { values: a } = parseArgs({
  options: {
    dims: { type: "string", default: "512" },
    batches: { type: "string", default: "100,1000" },
    runs: { type: "string", default: "15" },
  },
});
const DIMS = Number(a.dims);
const RUNS = Number(a.runs);
const AGENT = "bench-stages";
const NAME = "memstream_bench_write_stages";

const base = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const admin = postgres(base, { max: 1, onnotice: () => {} });
if ((await admin`SELECT 1 FROM pg_database WHERE datname = ${NAME}`).length === 0)
  await admin.unsafe(`CREATE DATABASE "${NAME}"`);
await admin.end();
const u = new URL(base);
u.pathname = `/${NAME}`;
const service = await openDatabase({ url: u.toString(), dataDir: "", poolSize: 1 });
await service.migrate();
// The same client with Nagle's algorithm left on (postgres-js's own `new net.Socket()`).
const nagleClient = postgres(u.toString(), {
  max: 1,
  onnotice: () => {},
  socket: (o: { host: string[]; port: number[] }) => connect(o.port[0] as number, o.host[0]),
} as never);
const nagle = drizzle(nagleClient, { schema, casing: "snake_case" }) as unknown as Db;

type Variant = { name: string; db: Db; async: boolean };
const variants: Variant[] = [
  { name: "service connection", db: service.db, async: false },
  { name: "synchronous_commit off", db: service.db, async: true },
  { name: "Nagle on", db: nagle, async: false },
];
const STAGES = ["begin", "insert", "copy", "commit", "total"] as const;

for (const batch of (a.batches as string).split(",").map(Number)) {
  await service.db.execute(sql`TRUNCATE memories CASCADE`);
  const times = new Map(variants.map((v) => [v, Object.fromEntries(STAGES.map((s) => [s, [] as number[]]))]));
  for (let run = 0; run < RUNS + 2; run++) {
    for (const v of variants) {
      const t = await once(v, batch);
      if (run < 2) continue; // warm-up: connection, prepared statements, JIT
      for (const s of STAGES) times.get(v)?.[s]?.push(t[s]);
    }
  }
  for (const v of variants) {
    const m = times.get(v) as Record<(typeof STAGES)[number], number[]>;
    console.log(
      `${DIMS}-d, batch of ${batch}, ${v.name}: ${STAGES.map((s) => `${s} ${quantile(m[s], 0.5).toFixed(1)}`).join(", ")} ms (medians of ${RUNS})`,
    );
  }
}
await nagleClient.end();
await service.close();

/** One batch through `insertMemoryRows` in its own transaction, timed per statement. */
async function once(v: Variant, n: number): Promise<Record<(typeof STAGES)[number], number>> {
  const now = new Date();
  const rows: InsertRow[] = [];
  const vectors: CopyVector[] = [];
  for (let i = 0; i < n; i++) {
    const id = newId("mem");
    const embedding = Float32Array.from({ length: DIMS }, () => Math.random() * 2 - 1);
    vectors.push({ memoryId: id, model: `bench-stages-${DIMS}`, embedding });
    rows.push({
      id,
      kind: "observation",
      description: `write ${i}`,
      createdAt: now,
      importance: 5,
      importanceSource: "caller",
      embeddingModel: `bench-stages-${DIMS}`,
      metadata: {},
      citations: [],
      promptVersion: null,
    });
  }
  const t0 = performance.now();
  let t1 = 0;
  let t2 = 0;
  let t3 = 0;
  await v.db.transaction(async (tx) => {
    if (v.async) await tx.execute(sql`SELECT set_config('synchronous_commit', 'off', true)`);
    t1 = performance.now();
    // What insertMemoryRows does, its two statements timed apart: the rows, then the COPY.
    await insertMemoryRows(tx, AGENT, now, rows, []);
    t2 = performance.now();
    await copyVectors(tx, AGENT, vectors);
    t3 = performance.now();
  });
  const t4 = performance.now();
  return { begin: t1 - t0, insert: t2 - t1, copy: t3 - t2, commit: t4 - t3, total: t4 - t0 };
}
