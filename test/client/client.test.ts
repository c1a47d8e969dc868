import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createCapture, createMemstreamClient, MemstreamError } from "@memstream/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { listen } from "../support/listen";
import { startTestSystem, type TestSystem } from "../support/system";
import { until } from "../support/until";

// The client against the real server listening on a port (real Postgres behind it).
const tenant = uniq("client");
let t: TestSystem;
let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  t = await startTestSystem({ env: { MEMSTREAM_API_KEYS: `tenant-key=${tenant}:` } });
  server = await listen(t.app.fetch);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const client = () => createMemstreamClient({ baseUrl: server.url, apiKey: "tenant-key" });

describe("@memstream/client", () => {
  it("stores, lists, retrieves with a text block, gets and forgets (agent ids with '/' too)", async () => {
    const c = client();
    const agent = `${tenant}:repo/acme`;
    const one = await c.remember(agent, { description: "Klaus is coming to the party", importance: 7 });
    expect(one).toMatchObject({ agentId: agent, importance: 7, status: { importance: "ready" } });
    const many = await c.rememberMany(agent, [
      { description: "The cafe opens at 8" },
      { description: "Maria bakes the cake", kind: "plan" },
    ]);
    expect(many).toHaveLength(2);

    const page = await c.list(agent, { limit: 2 });
    expect(page.memories).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
    const rest = await c.list(agent, { limit: 2, cursor: page.nextCursor ?? undefined });
    expect([...page.memories, ...rest.memories].map((m) => m.id).sort()).toEqual(
      [one.id, ...many.map((m) => m.id)].sort(),
    );

    const found = await c.retrieve(agent, {
      query: "who comes to the party?",
      format: "text",
      maxTokens: 500,
    });
    expect(found.context?.text).toContain("Klaus is coming to the party");
    expect(found.memories.map((m) => m.id)).toContain(one.id);

    expect((await c.get(agent, one.id)).description).toBe("Klaus is coming to the party");
    expect((await c.stats(agent)).total).toBe(3);
    await c.forget(agent, one.id);
    const gone = await c.get(agent, one.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(MemstreamError);
    expect(gone).toMatchObject({ status: 404, code: "not_found" });
  });

  it("subscribes to outgoing events, reads the delivery log and unsubscribes", async () => {
    const c = client();
    const agent = `${tenant}:events`;
    const sub = await c.subscribe(agent, {
      url: "https://hooks.example.com/memstream",
      events: ["memory.written"],
    });
    expect(sub.secret).toMatch(/^whsec_/);
    expect((await c.subscriptions(agent)).map((x) => x.id)).toEqual([sub.id]);
    await c.remember(agent, { description: "told to the hook", importance: 2 });
    // No workers here: the delivery waits in the log.
    const [d] = await c.deliveries(agent, sub.id, { limit: 5 });
    expect(d).toMatchObject({ event: "memory.written", status: "pending", attempts: 0 });
    // Loopback is refused outside zero-config unless the server allows it.
    const refused = await c.subscribe(agent, { url: "http://127.0.0.1:9/x" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MemstreamError);
    expect((refused as MemstreamError).status).toBe(400);
    await c.unsubscribe(agent, sub.id);
    expect(await c.subscriptions(agent)).toEqual([]);
  });

  it("throws typed errors carrying the code, the field and the request id", async () => {
    const c = client();
    const err = (await c
      .remember(`${tenant}:x`, { description: "x", importance: 11 })
      .catch((e: unknown) => e)) as MemstreamError;
    expect(err).toBeInstanceOf(MemstreamError);
    expect(err.status).toBe(400);
    expect(err.code).toBe("invalid_request");
    expect(err.details?.field).toBe("body.importance");
    expect(err.requestId).toMatch(/.{8,}/);

    const outside = (await c.stats("other-tenant").catch((e: unknown) => e)) as MemstreamError;
    expect(outside).toMatchObject({ status: 404, code: "not_found" });
    const anonymous = createMemstreamClient({ baseUrl: server.url });
    expect(await anonymous.stats(`${tenant}:x`).catch((e: unknown) => e)).toMatchObject({
      status: 401,
      code: "unauthorized",
    });
  });

  it("retries 503 and 429 with backoff (honouring retry-after), then returns the real answer", async () => {
    // A front that refuses the first calls the way an overloaded or degraded server would, then
    // passes every request to the real server.
    let refusals = [503, 429];
    const seen: number[] = [];
    const front = createServer(async (req, res) => {
      const status = refusals.shift();
      if (status) {
        seen.push(status);
        res.writeHead(status, { "content-type": "application/json", "retry-after": "0" });
        res.end(
          JSON.stringify({
            error: { code: status === 503 ? "unavailable" : "rate_limited", message: "busy", requestId: "r" },
          }),
        );
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const upstream = await fetch(`${server.url}${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "" });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
    await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
      const c = createMemstreamClient({ baseUrl: url, apiKey: "tenant-key", retry: { baseDelayMs: 10 } });
      const agent = `${tenant}:retry`;
      // A POST body survives the retries: the memory is stored once, with its text.
      const stored = await c.remember(agent, { description: "stored after two refusals" });
      expect(seen).toEqual([503, 429]);
      expect((await c.list(agent)).memories.map((m) => m.id)).toEqual([stored.id]);

      refusals = [503, 503, 503];
      const impatient = createMemstreamClient({
        baseUrl: url,
        apiKey: "tenant-key",
        retry: { retries: 1, baseDelayMs: 10 },
      });
      const err = await impatient.stats(agent).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 503, code: "unavailable" });
      expect(refusals).toEqual([503]);
    } finally {
      await new Promise<void>((r) => front.close(() => r()));
    }
  });

  it("capture records wrapped calls and AI-SDK-style tools as observations, batched, without blocking", async () => {
    const c = client();
    const agent = `${tenant}:capture`;
    const errors: unknown[] = [];
    const capture = createCapture(c, {
      agentId: agent,
      batchSize: 3,
      flushIntervalMs: 60_000,
      onError: (e) => errors.push(e),
    });

    const add = capture.wrap("add", (a: number, b: number) => a + b);
    const weather = capture.tool("getWeather", {
      description: "weather in a city",
      execute: async ({ city }: { city: string }) => ({ city, sky: "clear" }),
    });
    const failing = capture.wrap("deploy", async (_env: string) => {
      throw new Error("permission denied");
    });

    // The agent gets its answers at once; nothing waits for memstream.
    expect(add(2, 3)).toBe(5);
    expect(await weather.execute?.({ city: "Lisbon" })).toEqual({ city: "Lisbon", sky: "clear" });
    expect(weather.description).toBe("weather in a city");
    // The third observation fills a batch: it is sent in the background.
    await expect(failing("prod")).rejects.toThrow("permission denied");
    capture.observe("The user asked for a summary", { step: 4 });
    expect(capture.pending()).toBe(1);

    // The full batch goes out without a flush (the fourth may follow it, queued while it was sent).
    const first = await until("the full batch to be stored", async () => {
      if (errors.length > 0) throw new Error(`capture failed: ${errors.map(String).join("; ")}`);
      const page = await c.list(agent, { limit: 10 });
      // The sender drains what is queued while it runs, so the 4th observation may ride along.
      const tools = page.memories.filter((m) => m.metadata.source === "capture" && m.metadata.tool);
      return tools.length === 3 ? tools : undefined;
    });
    expect(first.map((m) => m.description).sort()).toEqual([
      "add(2, 3) returned 5",
      "deploy(prod) failed: permission denied",
      'getWeather({"city":"Lisbon"}) returned {"city":"Lisbon","sky":"clear"}',
    ]);
    expect(first.find((m) => m.description.startsWith("deploy"))?.metadata).toMatchObject({
      source: "capture",
      tool: "deploy",
      status: "error",
    });

    await capture.close();
    const all = await c.list(agent, { limit: 10 });
    expect(all.memories).toHaveLength(4);
    expect(all.memories[0]?.metadata).toMatchObject({ step: 4 });
    expect(errors).toEqual([]);
  }, 90_000);

  it("capture reports a batch the server refuses and keeps the agent running", async () => {
    const c = client();
    const lost: number[] = [];
    const capture = createCapture(c, { agentId: "outside-the-prefix", onError: (_e, n) => lost.push(n) });
    capture.observe("never stored");
    await capture.close();
    expect(lost).toEqual([1]);
  });
});
