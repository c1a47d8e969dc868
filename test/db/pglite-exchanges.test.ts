import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, queryRows } from "../../src/db/client";

// Embedded PGlite has one backend; the API and the in-process workers each have a connection to it
// (src/db/pglite-exchanges.ts). Their exchanges must never interleave, and the API's must not wait
// behind the workers' queue.
let database: Database;
beforeAll(async () => {
  database = await openDatabase({ url: null, dataDir: "memory://" });
}, 120_000);
afterAll(() => database.close());

const one = async <T>(db: Database["db"], query: ReturnType<typeof sql>) =>
  (await queryRows<T>(db, query))[0] as T;

describe("embedded PGlite's two connections", () => {
  it("never run a statement of one inside the other's exchange or transaction", async () => {
    // Each connection pipelines its statements; interleaved messages would bind one connection's
    // parameters to the other's statement, or run a statement inside the other's transaction.
    const side = (db: Database["db"], tag: string) =>
      Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 4 === 0
            ? db.transaction(async (tx) => {
                await tx.execute(sql`SELECT set_config('memstream.owner', ${`${tag}${i}`}, true)`);
                return (
                  await one<{ v: string }>(tx as never, sql`SELECT current_setting('memstream.owner') AS v`)
                ).v;
              })
            : one<{ v: string }>(db, sql`SELECT ${tag}::text || ${String(i)}::text AS v`).then((r) => r.v),
        ),
      );
    const [api, background] = await Promise.all([side(database.db, "api"), side(database.background, "bg")]);
    expect(api).toEqual(Array.from({ length: 40 }, (_, i) => `api${i}`));
    expect(background).toEqual(Array.from({ length: 40 }, (_, i) => `bg${i}`));
    // Outside the transactions, the setting they made local is gone on both.
    expect(await one(database.db, sql`SELECT current_setting('memstream.owner', true) AS v`)).toEqual({
      v: "",
    });
  });

  it("serve an API statement before the workers' statements queued ahead of it", async () => {
    const done: string[] = [];
    const heavy = sql`SELECT count(*)::int AS n FROM generate_series(1, 200000)`;
    const queued = Array.from({ length: 8 }, (_, i) =>
      one(database.background, heavy).then(() => done.push(`bg${i}`)),
    );
    // Sent after them: the seven behind the first still wait on the workers' connection.
    await one(database.db, sql`SELECT 1 AS v`).then(() => done.push("api"));
    await Promise.all(queued);
    expect(done.indexOf("api")).toBeLessThan(3);
  });

  // Last: it ends the workers' connection of this file's database.
  it("leave the backend free when a connection drops inside a transaction", async () => {
    let entered: () => void = () => {};
    const inside = new Promise<void>((r) => {
      entered = r;
    });
    let release: (e: Error) => void = () => {};
    const never = new Promise<void>((_, reject) => {
      release = reject;
    });
    // Not committed before its connection drops.
    const held = database.background
      .transaction(async (tx) => {
        await tx.execute(sql`SELECT 1`);
        entered();
        await never;
      })
      .catch(() => {});
    await inside;
    // The workers' connection closes mid-transaction: its transaction is rolled back, the API's
    // connection is served again.
    await (database.background as unknown as { $client: { end(o: object): Promise<void> } }).$client.end({
      timeout: 0,
    });
    expect(await one(database.db, sql`SELECT 2 AS v, ${"x"}::text AS w`)).toEqual({ v: 2, w: "x" });
    release(new Error("done"));
    await held;
  });
});
