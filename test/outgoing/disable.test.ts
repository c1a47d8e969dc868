import { afterAll, beforeAll, expect, it } from "vitest";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";
import { until } from "../support/until";
import { startReceiver } from "./receiver";

// A subscription whose deliveries keep failing for good is disabled (MEMSTREAM_EVENTS_DISABLE_AFTER
// in a row), and nothing more is recorded for it. In-process queue here (no Redis).
const s = uniq("evdis");
let t: TestSystem;
let rx: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  rx = await startReceiver();
  t = await startTestSystem({
    env: {
      MEMSTREAM_EVENTS_ALLOW_PRIVATE: "true",
      MEMSTREAM_EVENTS_ATTEMPTS: "1",
      MEMSTREAM_EVENTS_DISABLE_AFTER: "2",
    },
  });
  t.system.jobs.startWorkers();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await rx?.close();
});

it("disables a subscription after 2 deliveries in a row failed for good", async () => {
  const agent = `${s}-a`;
  rx.answer("/down", 500, 500, 500);
  const res = await t.call("POST", `/v1/agents/${agent}/subscriptions`, {
    url: rx.url("/down"),
    events: ["memory.written"],
  });
  const sub = (await res.json()) as { id: string };
  const get = async () =>
    (await (await t.call("GET", `/v1/agents/${agent}/subscriptions/${sub.id}`)).json()) as {
      status: string;
      consecutiveFailures: number;
      disabledReason: string | null;
    };
  for (const description of ["first", "second"]) {
    expect(
      (await t.call("POST", `/v1/agents/${agent}/memories`, { description, importance: 1 })).status,
    ).toBe(201);
    await until(`${description} failed`, async () =>
      rx.on("/down").some((r) => r.body.includes(`"${description}"`)) ? true : null,
    );
  }
  const disabled = await until("disabled", async () => {
    const x = await get();
    return x.status === "disabled" ? x : null;
  });
  expect(disabled).toMatchObject({ consecutiveFailures: 2 });
  expect(disabled.disabledReason).toContain("2 deliveries in a row");
  const log = (await (
    await t.call("GET", `/v1/agents/${agent}/subscriptions/${sub.id}/deliveries`)
  ).json()) as {
    deliveries: { status: string; attempts: number; lastStatusCode: number }[];
  };
  expect(log.deliveries.map((d) => [d.status, d.attempts, d.lastStatusCode])).toEqual([
    ["failed", 1, 500],
    ["failed", 1, 500],
  ]);
  // Nothing more is recorded for a disabled subscription.
  await t.call("POST", `/v1/agents/${agent}/memories`, { description: "third", importance: 1 });
  const after = (await (
    await t.call("GET", `/v1/agents/${agent}/subscriptions/${sub.id}/deliveries`)
  ).json()) as {
    deliveries: unknown[];
  };
  expect(after.deliveries).toHaveLength(2);
});
