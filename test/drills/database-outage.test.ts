import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

let proxy: TcpProxy;
let t: TestSystem;
beforeAll(async () => {
  const db = new URL(TEST_DATABASE_URL);
  proxy = await startTcpProxy({ host: db.hostname, port: Number(db.port || 5432) });
  db.host = `127.0.0.1:${proxy.port}`;
  t = await startTestSystem({ env: { DATABASE_URL: db.toString() } });
});
afterAll(async () => {
  await t.close();
  await proxy.close();
});

it("answers 503 in the error envelope while the database is down, and recovers when it is back", async () => {
  const agent = uniq("outage");
  expect((await t.call("POST", `/v1/agents/${agent}/memories`, { description: "before" })).status).toBe(201);

  await proxy.down();
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, { description: "during" });
  expect(res.status).toBe(503);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unavailable");
  const ready = await t.call("GET", "/readyz");
  expect(ready.status).toBe(503);

  await proxy.up();
  const deadline = Date.now() + 15_000;
  let status = 0;
  while (Date.now() < deadline) {
    status = (await t.call("POST", `/v1/agents/${agent}/memories`, { description: "after" })).status;
    if (status === 201) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(status).toBe(201);
  const stats = (await (await t.call("GET", `/v1/agents/${agent}/stats`)).json()) as { total: number };
  expect(stats.total).toBe(2); // "during" was not half-written
});
