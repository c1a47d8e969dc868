import { once } from "node:events";
import type { Socket } from "node:net";
import { sql } from "drizzle-orm";
import type postgres from "postgres";
import { afterAll, expect, it } from "vitest";
import { openDatabase, queryRows } from "../../src/db/client";
import { noDelaySocket } from "../../src/db/socket";
import { TEST_DATABASE_URL } from "../support/env";
import { startTcpProxy } from "../support/tcp-proxy";

const url = new URL(TEST_DATABASE_URL);
const target = { host: [url.hostname], port: [Number(url.port || 5432)] };
const sockets: Socket[] = [];
afterAll(() => {
  for (const s of sockets) s.destroy();
});

/** Node keeps the TCP_NODELAY setting it applies under this symbol (no public getter). */
const noDelayOf = (s: Socket) => {
  const key = Object.getOwnPropertySymbols(s).find((k) => k.description === "kSetNoDelay");
  return key ? (s as unknown as Record<symbol, unknown>)[key] : undefined;
};

it("opens a TCP connection with Nagle's algorithm off, to each host in turn", async () => {
  const open = noDelaySocket();
  const two = { host: [url.hostname, "localhost"], port: [...target.port, ...target.port] };
  const first = open(two);
  const second = open(two);
  sockets.push(first, second);
  await Promise.all([once(first, "connect"), once(second, "connect")]);
  expect(noDelayOf(first)).toBe(true);
  expect(noDelayOf(second)).toBe(true);
  expect([(first as Socket & { host?: string }).host, (second as Socket & { host?: string }).host]).toEqual([
    url.hostname,
    "localhost",
  ]);
});

it("a pool on it runs COPY in a transaction, and reconnects through it after the connection drops", async () => {
  const proxy = await startTcpProxy({ host: url.hostname, port: target.port[0] as number });
  const via = new URL(TEST_DATABASE_URL);
  via.host = `127.0.0.1:${proxy.port}`;
  const database = await openDatabase({ url: via.toString(), dataDir: "", poolSize: 1 });
  try {
    const copied = await database.db.transaction(async (tx) => {
      await tx.execute(sql`CREATE TEMP TABLE socket_copy (x int) ON COMMIT DROP`);
      const client = (tx as unknown as { session: { client: postgres.Sql } }).session.client;
      const stream = await client.unsafe("COPY socket_copy FROM STDIN").writable();
      stream.end("1\n2\n3\n");
      await once(stream, "finish");
      return queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM socket_copy`);
    });
    expect(copied).toEqual([{ n: 3 }]);

    await proxy.down();
    await new Promise((r) => setTimeout(r, 100));
    await proxy.up();
    let rows: { x: number }[] | null = null;
    for (let i = 0; i < 5 && rows === null; i++)
      rows = await queryRows<{ x: number }>(database.db, sql`SELECT 4 AS x`).catch(() => null);
    expect(rows).toEqual([{ x: 4 }]);
  } finally {
    await database.close();
    await proxy.close();
  }
});
