import { createHmac } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { composeSystem, type System } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { silentLogger } from "../../src/lib/logger";
import { until } from "../support/until";
import { startReceiver } from "./receiver";

// Zero-config (embedded PGlite, in-process queue, no Redis): the same triggers write the outbox and
// the in-process queue delivers. Loopback is allowed by default here (a local, single-user setup).
let system: System;
let app: ReturnType<typeof createApp>;
let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  rx = await startReceiver();
  system = await composeSystem(loadConfig({ MEMSTREAM_DATA_DIR: "memory://" }), silentLogger);
  system.jobs.startWorkers();
  app = createApp(system.app);
}, 120_000);
afterAll(async () => {
  await system?.close();
  await rx?.close();
});

const post = (path: string, body: unknown) =>
  app.request(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

it("delivers a signed memory.written from PGlite through the in-process queue", async () => {
  expect(system.database.kind).toBe("pglite");
  const sub = await post("/v1/agents/local-1/subscriptions", {
    url: rx.url("/zc"),
    events: ["memory.written"],
  });
  expect(sub.status).toBe(201);
  const { secret } = (await sub.json()) as { secret: string };
  expect(
    (await post("/v1/agents/local-1/memories", { description: "zero-config events", importance: 3 })).status,
  ).toBe(201);
  const got = await until("the delivery", async () => rx.on("/zc")[0], 30_000);
  expect(got.headers["x-memstream-signature-256"]).toBe(
    `sha256=${createHmac("sha256", secret).update(got.body).digest("hex")}`,
  );
  expect(JSON.parse(got.body)).toMatchObject({
    type: "memory.written",
    agentId: "local-1",
    data: { memory: { description: "zero-config events" } },
  });
});
