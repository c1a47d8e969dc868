import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/client";
import { retryOnDeadlock } from "../../src/db/retry-deadlock";
import { sqlState } from "../../src/db/sql-state";
import { TEST_DATABASE_URL, uniq } from "../support/env";

// Two transactions that take two rows in opposite orders meet in a cycle; PostgreSQL aborts one
// (40P01). Run through retryOnDeadlock, the aborted one runs again once the other has committed,
// and both succeed; run bare, one of them fails.

const table = uniq("deadlock").replaceAll(/[^a-z0-9_]/gi, "_");
let database: Database;
beforeAll(async () => {
  database = await openDatabase({ url: TEST_DATABASE_URL, dataDir: "", poolSize: 4 });
  await database.db.execute(sql.raw(`CREATE TABLE ${table} (id int PRIMARY KEY, n int NOT NULL)`));
  await database.db.execute(sql.raw(`INSERT INTO ${table} VALUES (1, 0), (2, 0)`));
});
afterAll(async () => {
  await database.db.execute(sql.raw(`DROP TABLE IF EXISTS ${table}`));
  await database.close();
});

/** Both transactions hold their first row before either asks for its second. */
function crossing() {
  let holding = 0;
  const bothHold = () =>
    new Promise<void>((resolve) => {
      holding++;
      const wait = () => (holding >= 2 ? resolve() : setTimeout(wait, 5));
      wait();
    });
  const tx = (first: number, second: number) => () =>
    database.db.transaction(async (t) => {
      await t.execute(sql.raw(`SET LOCAL deadlock_timeout = '50ms'`));
      await t.execute(sql.raw(`UPDATE ${table} SET n = n + 1 WHERE id = ${first}`));
      await bothHold();
      await t.execute(sql.raw(`UPDATE ${table} SET n = n + 1 WHERE id = ${second}`));
      return first;
    });
  return { a: tx(1, 2), b: tx(2, 1) };
}

describe("retryOnDeadlock", () => {
  it("runs a transaction PostgreSQL aborted for a deadlock again, and both commit", async () => {
    const { a, b } = crossing();
    const results = await Promise.all([retryOnDeadlock(a), retryOnDeadlock(b)]);
    expect(results.sort()).toEqual([1, 2]);
  });

  it("without it, one of the two fails with 40P01", async () => {
    const { a, b } = crossing();
    const results = await Promise.allSettled([a(), b()]);
    const failed = results.filter((r) => r.status === "rejected");
    expect(failed).toHaveLength(1);
    expect(sqlState((failed[0] as PromiseRejectedResult).reason)).toBe("40P01");
  });

  it("leaves other errors to the caller at once", async () => {
    let runs = 0;
    await expect(
      retryOnDeadlock(async () => {
        runs++;
        throw Object.assign(new Error("unique violation"), { code: "23505" });
      }),
    ).rejects.toThrow("unique violation");
    expect(runs).toBe(1);
  });
});
