import { afterEach, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";
import { pipelineEnv } from "./support";

let t: TestSystem | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe("POST /v1/agents/{agentId}/enrichment/retry", () => {
  it("answers zero counts for an agent with nothing failed", async () => {
    t = await startTestSystem({ env: pipelineEnv() });
    const res = await t.call("POST", `/v1/agents/${uniq("none")}/enrichment/retry`);
    expect(res.status).toBe(200);
    expect((await res.json()) as unknown).toEqual({ importance: 0, embedding: 0 });
  });

  it("rejects a malformed agent id", async () => {
    t = await startTestSystem({ env: pipelineEnv() });
    const res = await t.call("POST", "/v1/agents/-bad/enrichment/retry");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { details: { field: string } } }).error.details.field).toBe(
      "agentId",
    );
  });

  it("needs an API key when keys are configured, and stays inside the key's agent prefix", async () => {
    t = await startTestSystem({ env: { ...pipelineEnv(), MEMSTREAM_API_KEYS: "k1=tenant-a" } });
    expect((await t.call("POST", "/v1/agents/tenant-a-1/enrichment/retry")).status).toBe(401);
    const auth = { authorization: "Bearer k1" };
    expect((await t.call("POST", "/v1/agents/tenant-b-1/enrichment/retry", undefined, auth)).status).toBe(
      404,
    );
    expect((await t.call("POST", "/v1/agents/tenant-a-1/enrichment/retry", undefined, auth)).status).toBe(
      200,
    );
  });
});
