import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { createLogger } from "../../src/lib/logger";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// Request logs: one pino JSON line per request with the request id the client saw.
let t: TestSystem;
let lines: Record<string, unknown>[] = [];
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  t = await startTestSystem();
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split("\n")) if (l.trim()) lines.push(JSON.parse(l));
      done();
    },
  });
  app = createApp({ ...t.system.app, logger: createLogger("info", { service: "test" }, sink) });
});
afterAll(() => t.close());

describe("request logging", () => {
  it("logs each request once with its request id, route pattern, status and duration", async () => {
    lines = [];
    const agent = uniq("log");
    const res = await app.request(`/v1/agents/${agent}/memories`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "req-from-client" },
      body: JSON.stringify({ description: "The build broke" }),
    });
    expect(res.status).toBe(201);
    const requests = lines.filter((l) => l.msg === "request");
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      level: "info",
      service: "test",
      requestId: "req-from-client",
      method: "POST",
      route: "/v1/agents/:agentId/memories",
      path: `/v1/agents/${agent}/memories`,
      status: 201,
    });
    expect(typeof requests[0]?.ms).toBe("number");
    expect(typeof requests[0]?.time).toBe("string");
  });

  it("a generated request id in the log is the one in the response header and the error body", async () => {
    lines = [];
    const res = await app.request("/v1/agents/x/memories", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(400);
    const id = res.headers.get("x-request-id");
    expect(id).toBeTruthy();
    expect(((await res.json()) as { error: { requestId: string } }).error.requestId).toBe(id);
    expect(lines.find((l) => l.msg === "request")).toMatchObject({ requestId: id, status: 400 });
  });

  it("unmatched paths log route 'unmatched'; probes log at debug only", async () => {
    lines = [];
    expect((await app.request("/nope")).status).toBe(404);
    expect((await app.request("/healthz")).status).toBe(200);
    const requests = lines.filter((l) => l.msg === "request");
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ route: "unmatched", status: 404 });
  });
});
