import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

let t: TestSystem;
const tenant = uniq("acme");
beforeAll(async () => {
  t = await startTestSystem({ env: { MEMSTREAM_API_KEYS: `k-admin,k-acme=github:${tenant}/` } });
});
afterAll(() => t.close());

const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
const agent = (name: string) => `/v1/agents/${encodeURIComponent(`github:${tenant}/${name}`)}`;

describe("API keys", () => {
  it("401 without a key or with an unknown one, in the error envelope", async () => {
    for (const headers of [{}, bearer("nope"), { authorization: "Basic k-admin" }]) {
      const res = await t.call("GET", `${agent("api")}/stats`, undefined, headers);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
  });

  it("the scheme in any case (RFC 7235): bearer, BEARER and Bearer with extra blanks all pass", async () => {
    for (const authorization of ["bearer k-admin", "BEARER k-admin", "Bearer   k-admin", "bEaReR\tk-admin"]) {
      const res = await t.call("GET", `${agent("api")}/stats`, undefined, { authorization });
      expect(res.status, authorization).toBe(200);
    }
    // Not a prefix match: "Bearerk-admin" is no scheme at all.
    expect(
      (await t.call("GET", `${agent("api")}/stats`, undefined, { authorization: "Bearerk-admin" })).status,
    ).toBe(401);
  });

  it("415 for a body that is not JSON says what to send", async () => {
    // What `curl -d` sends without -H 'content-type: application/json'.
    const res = await t.app.request(`${agent("api")}/memories`, {
      method: "POST",
      headers: { ...bearer("k-admin"), "content-type": "application/x-www-form-urlencoded" },
      body: JSON.stringify({ description: "x" }),
    });
    expect(res.status).toBe(415);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({ code: "unsupported_media_type" });
    expect(body.error.message).toContain("send Content-Type: application/json");
    expect(body.error.message).toContain("application/x-www-form-urlencoded");
  });

  it("a full key reaches every agent; a scoped key only its prefix", async () => {
    const mine = await t.call(
      "POST",
      `${agent("api")}/memories`,
      { description: "tenant memory" },
      bearer("k-acme"),
    );
    expect(mine.status).toBe(201);
    const { id } = (await mine.json()) as { id: string };
    expect((await t.call("GET", `${agent("api")}/memories/${id}`, undefined, bearer("k-admin"))).status).toBe(
      200,
    );

    const other = `/v1/agents/${encodeURIComponent(uniq("github:other/repo"))}`;
    expect((await t.call("POST", `${other}/memories`, { description: "x" }, bearer("k-admin"))).status).toBe(
      201,
    );
    for (const [method, path] of [
      ["GET", `${other}/stats`],
      ["POST", `${other}/retrieve`],
      ["DELETE", other],
      ["GET", `${other}/memories`],
    ] as const) {
      const res = await t.call(method, path, method === "POST" ? {} : undefined, bearer("k-acme"));
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    // The other tenant's memory is still there.
    const stats = (await (await t.call("GET", `${other}/stats`, undefined, bearer("k-admin"))).json()) as {
      total: number;
    };
    expect(stats.total).toBe(1);
  });
});

describe("health and errors", () => {
  it("healthz and readyz need no key; readyz checks migrations", async () => {
    expect(await (await t.call("GET", "/healthz")).json()).toEqual({ ok: true });
    const ready = await t.call("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, checks: { database: "ok", migrations: "ok" } });
  });

  it("unknown routes answer in the error envelope with the request id header", async () => {
    const res = await t.call("GET", "/v1/nothing-here", undefined, bearer("k-admin"));
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; requestId: string } };
    expect(body.error.code).toBe("not_found");
    expect(body.error.requestId).toBe(res.headers.get("x-request-id"));
  });

  it("serves its OpenAPI document", async () => {
    const doc = (await (await t.call("GET", "/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toContain("/v1/agents/{agentId}/retrieve");
  });
});

describe("configuration", () => {
  it("refuses to listen beyond loopback without API keys", () => {
    expect(() => loadConfig({ HOST: "0.0.0.0" })).toThrow(/MEMSTREAM_API_KEYS/);
    expect(loadConfig({ HOST: "0.0.0.0", MEMSTREAM_API_KEYS: "a,b=npc-" }).apiKeys).toEqual([
      { token: "a", scope: null },
      { token: "b", scope: { kind: "prefix", value: "npc-" } },
    ]);
  });

  it("names every invalid variable", () => {
    expect(() => loadConfig({ PORT: "http", EMBEDDING_PROVIDER: "magic" })).toThrow(
      /PORT.*EMBEDDING_PROVIDER|EMBEDDING_PROVIDER.*PORT/,
    );
  });

  it("puts the queues of a Redis Cluster under one hash tag, and refuses a prefix without one", () => {
    const redis = { REDIS_URL: "redis://127.0.0.1:7000" };
    expect(loadConfig(redis).jobs.queuePrefix).toBe("memstream");
    expect(loadConfig({ ...redis, REDIS_CLUSTER: "true" }).jobs.queuePrefix).toBe("{memstream}");
    expect(
      loadConfig({ ...redis, REDIS_CLUSTER: "true", MEMSTREAM_QUEUE_PREFIX: "{a}-b" }).jobs.queuePrefix,
    ).toBe("{a}-b");
    expect(() => loadConfig({ ...redis, REDIS_CLUSTER: "true", MEMSTREAM_QUEUE_PREFIX: "plain" })).toThrow(
      /hash tag in MEMSTREAM_QUEUE_PREFIX/,
    );
  });

  it("distributes on Citus only with a database URL", () => {
    const url = "postgres://postgres@127.0.0.1:5432/x";
    expect(loadConfig({ DATABASE_URL: url }).distributed).toBeNull();
    expect(loadConfig({ DATABASE_URL: url, MEMSTREAM_DISTRIBUTED: "citus" }).distributed).toBe("citus");
    expect(() => loadConfig({ MEMSTREAM_DISTRIBUTED: "citus" })).toThrow(/needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: url, MEMSTREAM_DISTRIBUTED: "mongo" })).toThrow(
      /MEMSTREAM_DISTRIBUTED/,
    );
  });
});
