import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client";
import { TEST_DATABASE_URL } from "../support/env";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

// While the database is down every request queues behind the pool's reconnect backoff before it
// can answer 503. postgres-js's own backoff grows to 20 s (twenty failed queries in a row took
// ~18 s, one of them 11 s); the pool's is capped at half a second, so an outage is answered at
// once and the pool is back within a second of the database.
let proxy: TcpProxy | null = null;
afterAll(() => proxy?.close());

it("answers queries during an outage without growing waits, and reconnects right after", async () => {
  const url = new URL(TEST_DATABASE_URL);
  proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  url.host = `127.0.0.1:${proxy.port}`;
  const database = await openDatabase({ url: url.toString(), dataDir: "", poolSize: 2 });
  try {
    expect(await database.db.execute(sql`SELECT 1 AS x`)).toEqual([{ x: 1 }]);
    await proxy.down();
    const started = Date.now();
    let failed = 0;
    for (let i = 0; i < 20; i++) await database.db.execute(sql`SELECT 1`).catch(() => failed++);
    expect(failed).toBe(20);
    // Generous for a loaded machine; postgres-js's default backoff needs well over 10 s here.
    expect(Date.now() - started).toBeLessThan(10_000);

    await proxy.up();
    const back = Date.now();
    expect(await database.db.execute(sql`SELECT 2 AS x`)).toEqual([{ x: 2 }]);
    expect(Date.now() - back).toBeLessThan(5_000);
  } finally {
    await database.close();
  }
});
