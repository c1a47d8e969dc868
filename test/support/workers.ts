import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../src/db/client";
import { useExactScan } from "../../src/memory/retrieve/execute";

type Ranked<R> = { gather: boolean; rows: R[] };

/**
 * Runs a ranking statement as retrieve runs it, without and then with parallel workers (small
 * tables made worth a parallel scan, as a large stream's are), and says whether each plan used
 * workers (a Gather): tests compare the two rankings, which workers must never change.
 */
export async function rankSerialAndParallel<R>(
  db: Db,
  statement: SQL,
): Promise<{ serial: Ranked<R>; parallel: Ranked<R> }> {
  const ranked = (parallel: boolean) =>
    db.transaction(async (tx) => {
      await useExactScan(tx, parallel);
      if (parallel)
        await tx.execute(
          sql`SELECT set_config('min_parallel_table_scan_size', '0', true), set_config('min_parallel_index_scan_size', '0', true)`,
        );
      const plan = await queryRows<{ "QUERY PLAN": string }>(tx, sql`EXPLAIN ${statement}`);
      const rows = await queryRows<R>(tx, statement);
      return { gather: plan.some((r) => r["QUERY PLAN"].includes("Gather")), rows };
    });
  return { serial: await ranked(false), parallel: await ranked(true) };
}
