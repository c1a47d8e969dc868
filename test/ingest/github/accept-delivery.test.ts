import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubDeliveries } from "../../../src/db/schema";
import { acceptDelivery, type WebhookRequest } from "../../../src/ingest/github/accept-delivery";
import type { WorkEvent } from "../../../src/memory/events";
import { uniq } from "../../support/env";
import { sign } from "../../support/github";
import { startTestSystem, type TestSystem } from "../../support/system";

// Write-then-announce has one home: acceptDelivery verifies, parses, stores and announces
// `delivery.accepted` through the one port; the route only translates HTTP.
const s = uniq("accept");
const SECRET = `secret-${s}`;
let t: TestSystem;
const ids: string[] = [];
beforeAll(async () => {
  t = await startTestSystem({ env: { GITHUB_WEBHOOK_SECRET: SECRET } });
});
afterAll(async () => {
  await t?.system.services.db.delete(githubDeliveries).where(inArray(githubDeliveries.id, ids));
  await t?.close();
});

const enqueued: string[] = [];
const deps = () => ({
  ...t.system.services,
  announce: async (events: readonly WorkEvent[]) => {
    for (const e of events) if (e.kind === "delivery.accepted") enqueued.push(e.deliveryId);
  },
});

function request(event: string, body: object, secret = SECRET): WebhookRequest {
  const id = `${s}-${ids.length}`;
  ids.push(id);
  const raw = new TextEncoder().encode(JSON.stringify(body));
  return { raw, signature: sign(raw, secret), event, deliveryId: id, contentType: "application/json" };
}
const stored = async (id: string) =>
  (await t.system.services.db.select().from(githubDeliveries).where(eq(githubDeliveries.id, id)))[0];

describe("acceptDelivery", () => {
  it("stores a new delivery and announces it once", async () => {
    const req = request("issues", { action: "opened", repository: { full_name: `acme/${s}` } });
    enqueued.length = 0;
    expect(await acceptDelivery(deps(), req)).toEqual({
      deliveryId: req.deliveryId,
      status: "accepted",
      pong: false,
    });
    expect((await stored(req.deliveryId as string))?.status).toBe("received");
    expect(enqueued).toEqual([req.deliveryId]);
  });

  it("a redelivery enqueues again only while the stored delivery has work left", async () => {
    const req = request("issues", { action: "closed" });
    await acceptDelivery(deps(), req);
    enqueued.length = 0;
    expect((await acceptDelivery(deps(), req)).status).toBe("duplicate");
    expect(enqueued).toEqual([req.deliveryId]);
    await t.system.services.db
      .update(githubDeliveries)
      .set({ status: "processed" })
      .where(eq(githubDeliveries.id, req.deliveryId as string));
    enqueued.length = 0;
    expect((await acceptDelivery(deps(), req)).status).toBe("duplicate");
    expect(enqueued).toEqual([]);
  });

  it("a bad signature stores and enqueues nothing", async () => {
    const req = request("issues", { action: "opened" }, "another-secret");
    enqueued.length = 0;
    await expect(acceptDelivery(deps(), req)).rejects.toMatchObject({ code: "invalid_signature" });
    expect(await stored(req.deliveryId as string)).toBeUndefined();
    expect(enqueued).toEqual([]);
  });

  it("a ping is stored and answered as a pong", async () => {
    const req = request("ping", { zen: "Keep it logically awesome." });
    expect((await acceptDelivery(deps(), req)).pong).toBe(true);
  });
});

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );

it("no route handler enqueues work itself: domain functions announce it", () => {
  const offenders = files("src/api/routes").filter((f) => /\.enqueue\(/.test(readFileSync(f, "utf8")));
  expect(offenders).toEqual([]);
});
