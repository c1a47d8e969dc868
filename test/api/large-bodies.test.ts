import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_THREAD_BYTES, type BodyWork, createBodyWork } from "../../src/api/body-work";
import { STATEMENT_TEXT_CHARS } from "../../src/memory/insert-rows";
import { uniq } from "../support/env";
import { listen } from "../support/listen";
import { startTestSystem, type TestSystem } from "../support/system";

// A POST /memories body of BODY_THREAD_BYTES or more is parsed and validated in the body thread
// (src/api/body-work.ts), and its rows go in statements of at most STATEMENT_TEXT_CHARS: the same
// answers as a small body, over real HTTP (a stated length) and in-process (no length).
let t: TestSystem;
let server: Awaited<ReturnType<typeof listen>>;
const inserts: string[] = [];
let offLoop = 0;
/** What the body thread answers, replaceable by a test. */
let judge: (bytes: Uint8Array) => ReturnType<BodyWork["memories"]>;
beforeAll(async () => {
  t = await startTestSystem({
    onQuery: (q) => {
      if (q.trimStart().startsWith("INSERT INTO memories ")) inserts.push(q);
    },
  });
  const bodies = t.system.app.bodies;
  const parse = bodies.memories.bind(bodies);
  judge = parse;
  bodies.memories = (bytes) => {
    offLoop++;
    return judge(bytes);
  };
  server = await listen(t.app.fetch);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

/** `n` memories with ~14 KB of metadata each and a 64-d vector: over 1 MiB from 75 of them. */
const batch = (n: number, edit: (m: Record<string, unknown>, i: number) => void = () => {}) => ({
  memories: Array.from({ length: n }, (_, i) => {
    const m: Record<string, unknown> = {
      description: `deploy ${i} of the billing service went out`,
      metadata: { notes: `${i} ${"n".repeat(14_000)}`, ticket: i },
      embedding: Array.from({ length: 64 }, (_, j) => ((i + j) % 7) / 8 - 0.25),
    };
    edit(m, i);
    return m;
  }),
});

type Answer = {
  memories: { id: string; metadata: { ticket: number }; status: object }[];
  error: { code: string; message: string; details: { field: string; issues: unknown[] } };
};

const post = async (agent: string, body: unknown, via: "http" | "in-process") => {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const res =
    via === "http"
      ? await fetch(`${server.url}/v1/agents/${agent}/memories`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: Buffer.from(text),
        })
      : await t.app.request(`/v1/agents/${agent}/memories`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: text,
        });
  return { status: res.status, body: (await res.json()) as Answer };
};

describe("large POST /memories bodies", () => {
  for (const via of ["http", "in-process"] as const) {
    it(`are parsed off the event loop and stored whole, in statements of bounded size (${via})`, async () => {
      const agent = uniq("large");
      const body = batch(90);
      expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(BODY_THREAD_BYTES);
      const [calls, statements] = [offLoop, inserts.length];
      const res = await post(agent, body, via);
      expect(res.status).toBe(201);
      expect(offLoop - calls).toBe(1);
      // 90 × ~14 KB of row JSON: two statements, one transaction.
      expect(inserts.length - statements).toBe(Math.ceil((90 * 14_100) / STATEMENT_TEXT_CHARS));
      const memories = res.body.memories;
      expect(memories.map((m) => m.metadata.ticket)).toEqual(Array.from({ length: 90 }, (_, i) => i));
      expect(memories[0]?.status).toEqual({ importance: "pending", embedding: "ready" });
      const stored = await t.call("GET", `/v1/agents/${agent}/memories/${memories[89]?.id}`);
      const got = (await stored.json()) as { metadata: { notes: string }; embeddingModel: string };
      expect(got.metadata.notes).toBe(`89 ${"n".repeat(14_000)}`);
      expect(got.embeddingModel).toBe(t.system.providers.embedder.modelId);
      const list = await t.call("GET", `/v1/agents/${agent}/memories?limit=100`);
      expect(((await list.json()) as { memories: unknown[] }).memories).toHaveLength(90);
    });

    it(`answer a bad field as a small body does, naming it (${via})`, async () => {
      const agent = uniq("large-bad");
      const nul = (m: Record<string, unknown>, i: number) => {
        if (i === 57) m.description = "has a \u0000 in it";
      };
      const calls = offLoop;
      const large = await post(agent, batch(90, nul), via);
      expect(offLoop - calls).toBe(1);
      const small = await post(agent, batch(60, nul), via);
      expect(offLoop - calls).toBe(1);
      expect(large.status).toBe(400);
      expect(large.body.error.details.field).toBe("body.memories.57.description");
      expect(large.body.error.message).toBe(small.body.error.message);
      expect(large.body.error.details.issues).toEqual(small.body.error.details.issues);
      const list = await t.call("GET", `/v1/agents/${agent}/memories`);
      expect(((await list.json()) as { memories: unknown[] }).memories).toHaveLength(0);
    });

    it(`answer malformed JSON with the validator's 400 (${via})`, async () => {
      const text = JSON.stringify(batch(90));
      const res = await post(uniq("large-malformed"), text.slice(0, -3), via);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.message).toMatch(/malformed json/i);
    });
  }

  it("answer a bound the body thread hit with its own error, not as malformed JSON", async () => {
    // A budget no 1 MiB body parses within: the thread is ended and the request answers 413.
    const slow = createBodyWork({ threads: 1, timeoutMs: 1 });
    const parse = judge;
    judge = (bytes) => slow.memories(bytes);
    try {
      const res = await post(uniq("large-bound"), batch(90), "http");
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe("payload_too_large");
      expect(res.body.error.message).toMatch(/time budget/);
    } finally {
      judge = parse;
      await slow.close();
    }
  });
});
