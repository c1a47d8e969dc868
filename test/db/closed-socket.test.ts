import postgres from "postgres";
import { afterAll, expect, it } from "vitest";
import { TEST_DATABASE_URL } from "../support/env";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

// postgres-js 3.4.x crashes the whole process (an uncaught TypeError from a setImmediate) when a
// connection whose socket has closed is written to; scripts/patches/postgres-closed-socket.mjs
// guards it. Without the patch this file's worker dies instead of seeing a rejection.
let proxy: TcpProxy | null = null;
afterAll(() => proxy?.close());

it("a query on a connection whose socket dropped is rejected, and the pool recovers", async () => {
  const db = new URL(TEST_DATABASE_URL);
  proxy = await startTcpProxy({ host: db.hostname, port: Number(db.port || 5432) });
  db.host = `127.0.0.1:${proxy.port}`;
  const sql = postgres(db.toString(), { max: 1, onnotice: () => {} });
  const conn = await sql.reserve();
  expect(await conn`SELECT 1 AS x`).toEqual([{ x: 1 }]);

  await proxy.down();
  await new Promise((r) => setTimeout(r, 100));
  let code: string | undefined;
  try {
    await conn`SELECT 2 AS x`;
  } catch (e) {
    code = (e as { code?: string }).code;
  }
  expect(code).toBe("CONNECTION_CLOSED");
  conn.release();

  await proxy.up();
  // The released connection is dead; at worst the next query fails once too, then the pool
  // reconnects. What matters: the process is alive and every failure was a catchable rejection.
  let rows: unknown = null;
  for (let i = 0; i < 5 && rows === null; i++)
    rows = await sql`SELECT 3 AS x`.then(
      (r) => r,
      () => null,
    );
  expect(rows).toEqual([{ x: 3 }]);
  await sql.end();
});
