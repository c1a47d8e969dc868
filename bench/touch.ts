/**
 * The touch alone, many times, on an existing bench database:
 * `npx tsx bench/touch.ts [--db memstream_bench_100000_512] [--agent bench-main] [--runs 300]`.
 * Touches the agent's 10 most recently accessed memories (as retrieve does after ranking) and
 * prints p50/p90/p99 of: the touch as its own statement (commit included), and the touch inside
 * a transaction with `synchronous_commit = off`, to separate the statement from the WAL flush.
 */
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "../src/db/client";
import { touchMemories } from "../src/memory/retrieve/touch";
import { quantile, timeRuns } from "./lib/stats";

const { values: a } = parseArgs({
  options: {
    db: { type: "string", default: "memstream_bench_100000_512" },
    agent: { type: "string", default: "bench-main" },
    runs: { type: "string", default: "300" },
  },
});
const url = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
url.pathname = `/${a.db}`;
const database = await openDatabase({ url: url.toString(), dataDir: "", poolSize: 1 });
const db = database.db;
const agent = a.agent as string;
const runs = Number(a.runs);
const ids = (
  await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM memories WHERE agent_id = ${agent} ORDER BY last_accessed_at DESC LIMIT 10`,
  )
).map((r) => r.id);

const report = (label: string, xs: number[]) =>
  console.log(
    `${a.db} ${agent} ${label}: p50 ${quantile(xs, 0.5).toFixed(2)} ms, p90 ${quantile(xs, 0.9).toFixed(2)} ms, p99 ${quantile(xs, 0.99).toFixed(2)} ms`,
  );
const own = await timeRuns(runs, 5, () => touchMemories(db, agent, ids, new Date()));
const async = await timeRuns(runs, 5, () =>
  db.transaction(async (tx) => {
    await tx.execute(sql`SELECT set_config('synchronous_commit', 'off', true)`);
    await touchMemories(tx, agent, ids, new Date());
  }),
);
report("touch (own statement)", own);
report("touch (transaction, synchronous_commit off)", async);
await database.close();
