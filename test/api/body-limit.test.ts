import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { listen } from "../support/listen";
import { startTestSystem, type TestSystem } from "../support/system";

// Over real HTTP (node-server), where the limit decides from Content-Length without reading the
// body, and counts the bytes of a chunked upload that states no length.
const MAX_BODY = 4096;
let t: TestSystem;
let server: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  t = await startTestSystem({ env: { MEMSTREAM_MAX_BODY_BYTES: String(MAX_BODY) } });
  server = await listen(t.app.fetch);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const post = (agent: string, body: string | ReadableStream<Uint8Array>, extra: RequestInit = {}) =>
  fetch(`${server.url}/v1/agents/${agent}/memories`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
    ...extra,
  });

/** A body sent in chunks with no Content-Length (Transfer-Encoding: chunked). */
const chunked = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      const bytes = new TextEncoder().encode(text);
      for (let i = 0; i < bytes.length; i += 1000) controller.enqueue(bytes.subarray(i, i + 1000));
      controller.close();
    },
  });

describe("request body limit over HTTP", () => {
  it("stores a batch under the limit, sent with its length or in chunks", async () => {
    const agent = uniq("limit-ok");
    const body = JSON.stringify({ memories: [{ description: "a" }, { description: "b" }] });
    const sized = await post(agent, body);
    expect(sized.status).toBe(201);
    const streamed = await post(agent, chunked(body), { duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(201);
    expect(((await streamed.json()) as { memories: unknown[] }).memories).toHaveLength(2);
  });

  it("answers 413 in the envelope for a body over the limit, with or without Content-Length", async () => {
    const big = JSON.stringify({ description: "x".repeat(MAX_BODY) });
    for (const res of [
      await post(uniq("limit-big"), big),
      await post(uniq("limit-big"), chunked(big), { duplex: "half" } as RequestInit),
    ]) {
      expect(res.status).toBe(413);
      const body = (await res.json()) as { error: { code: string; details: { limit: number } } };
      expect(body.error.code).toBe("payload_too_large");
      expect(body.error.details.limit).toBe(MAX_BODY);
    }
  });

  it("still refuses malformed JSON read by the direct path", async () => {
    const res = await post(uniq("limit-bad"), "{nope");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
  });
});
