import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_REDIS_URL, uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// /admin/queues: bull-board over the real BullMQ queues, for operators only.
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({
    env: {
      REDIS_URL: TEST_REDIS_URL,
      MEMSTREAM_QUEUE_PREFIX: uniq("board"),
      MEMSTREAM_API_KEYS: "agent-key",
      MEMSTREAM_ADMIN_KEYS: "ops-key",
    },
  });
});
afterAll(() => t.close());

const admin = { authorization: `Basic ${Buffer.from("ops:ops-key").toString("base64")}` };

describe("queue dashboard", () => {
  it("is closed to agent keys and to requests without a key (with a Basic challenge for browsers)", async () => {
    for (const path of ["/admin/queues", "/admin/queues/api/queues"]) {
      for (const headers of [{}, { authorization: "Bearer agent-key" }] as Record<string, string>[]) {
        const res = await t.app.request(path, { headers });
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.headers.get("www-authenticate")).toContain("Basic");
      }
    }
  });

  it("serves the dashboard page and lists the real queues with the jobs the API enqueued", async () => {
    const page = await t.app.request("/admin/queues", { headers: admin });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain('<base href="/admin/queues/"');
    // Its scripts are served from node_modules by this process (no CDN).
    const script = html.match(/src="(static\/js\/[^"]+\.js)"/)?.[1];
    expect(script).toBeTruthy();
    const js = await t.app.request(`/admin/queues/${script}`, { headers: admin });
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toContain("javascript");

    const agent = uniq("board-agent");
    const created = await t.call(
      "POST",
      `/v1/agents/${agent}/memories`,
      { description: "Queued for the dashboard" },
      { authorization: "Bearer agent-key" },
    );
    expect(created.status).toBe(201);

    // No workers run in this test: the jobs stay waiting, and the dashboard shows them.
    const res = await t.app.request("/admin/queues/api/queues?activeQueue=memories.embed&status=waiting", {
      headers: admin,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { queues: { name: string; counts: Record<string, number> }[] };
    const names = body.queues.map((q) => q.name);
    expect(names).toEqual(expect.arrayContaining(["memories.embed", "memories.score"]));
    const embed = body.queues.find((q) => q.name === "memories.embed");
    expect(embed?.counts.waiting).toBeGreaterThanOrEqual(1);
  });

  it("answers 501 without Redis (the in-process queue has no dashboard)", async () => {
    const local = await startTestSystem({ env: { MEMSTREAM_ADMIN_KEYS: "ops-key" } });
    try {
      const res = await local.app.request("/admin/queues", { headers: admin });
      expect(res.status).toBe(501);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain("REDIS_URL");
    } finally {
      await local.close();
    }
  });
});
