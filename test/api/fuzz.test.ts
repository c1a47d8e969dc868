import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ERROR_STATUS } from "../../src/api/errors";
import type { ErrorCode } from "../../src/lib/errors";
import { FUZZ_RUNS, FUZZ_SEED, SETUP_MS, uniq } from "../support/env";
import { type FuzzRequest, hostileValue, nastyString, requestFor } from "../support/fuzz";
import { sign } from "../support/github";
import { documentedStatuses, loadDoc, type OpenApiDoc, type Operation, operations } from "../support/openapi";
import { startTestSystem, type TestSystem } from "../support/system";

/**
 * Property-based fuzzing of every operation in /openapi.json: generated path ids, query strings
 * and bodies must never answer a 5xx for bad input, every error is the envelope with a documented
 * status, and the process stays up. Replay a failure with the printed FUZZ_SEED.
 */
const KEY = uniq("fuzz-key");
const SECRET = uniq("fuzz-secret");
const agents = [uniq("fuzz-a"), uniq("fuzz:b/c")];
// 5xx a request can legitimately get: configuration and provider answers, never bad input.
const NOT_INPUT_5XX: ErrorCode[] = ["not_configured", "reflection_failed", "invalid_provider_answer"];

let t: TestSystem;
let doc: OpenApiDoc;
const crashes: unknown[] = [];
const onCrash = (e: unknown) => crashes.push(e);
beforeAll(async () => {
  process.on("unhandledRejection", onCrash).on("uncaughtException", onCrash);
  t = await startTestSystem({
    env: { MEMSTREAM_API_KEYS: KEY, GITHUB_WEBHOOK_SECRET: SECRET, LLM_MODEL: "stub-chat" },
  });
  doc = await loadDoc(t.app);
  for (const a of agents) {
    const res = await t.call(
      "POST",
      `/v1/agents/${encodeURIComponent(a)}/memories`,
      {
        memories: [
          { description: "seed one", metadata: { n: 1 } },
          { description: "seed two", importance: 3 },
        ],
      },
      { authorization: `Bearer ${KEY}` },
    );
    expect(res.status).toBe(201);
  }
}, SETUP_MS);
afterAll(async () => {
  process.off("unhandledRejection", onCrash).off("uncaughtException", onCrash);
  await t.close();
});

const WEBHOOK = "POST /webhooks/github";

/** Webhook deliveries: hostile JSON (or an issue payload with hostile strings), correctly signed. */
const webhookRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(
      hostileValue.map((v) => JSON.stringify(v) ?? "null"),
      fc.tuple(nastyString(), nastyString()).map(([title, body]) =>
        JSON.stringify({
          action: "opened",
          issue: { number: 1, title, body },
          repository: { full_name: "a/b" },
        }),
      ),
      fc.constantFrom("", "{", "nul"),
    ),
    fc.constantFrom("issues", "push", "ping", "pull_request", "Not An Event", ""),
  )
  .map(([body, event]) => ({
    path: "/webhooks/github",
    body,
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": uniq("fuzz"),
      "x-hub-signature-256": sign(body, SECRET),
    },
  }));

async function check(o: Operation, req: FuzzRequest) {
  const res = await t.app.request(req.path, { method: o.method, headers: req.headers, body: req.body });
  const where = `${o.name} as ${o.method} ${req.path} -> ${res.status}`;
  expect(documentedStatuses(o.op), `${where}: undocumented status`).toContain(res.status);
  if (res.status < 400) return;
  const body = (await res.json()) as { error?: { code: ErrorCode; message: string; requestId: string } };
  expect(body.error, `${where}: no error envelope`).toBeDefined();
  const { code, message, requestId } = body.error ?? ({} as never);
  expect(ERROR_STATUS[code], `${where}: code ${code}`).toBe(res.status);
  expect(message.length, where).toBeGreaterThan(0);
  expect(requestId, where).toBe(res.headers.get("x-request-id"));
  if (res.status >= 500) expect(NOT_INPUT_5XX, `${where}: ${message}`).toContain(code);
}

it("every operation: generated ids, query strings and bodies never answer 5xx, errors are documented envelopes", async () => {
  const ops = operations(doc);
  expect(ops.length).toBeGreaterThan(10);
  const validAgent = fc.constantFrom(...agents);
  const headers = { authorization: `Bearer ${KEY}` };
  for (const o of ops) {
    const arb = o.name === WEBHOOK ? webhookRequest : requestFor(doc, o, { validAgent, headers });
    const result = await fc.check(
      fc.asyncProperty(arb, (req) => check(o, req)),
      { seed: FUZZ_SEED, numRuns: FUZZ_RUNS, interruptAfterTimeLimit: 60_000 },
    );
    if (result.failed) {
      throw new Error(
        `fuzz failure on ${o.name} (replay: FUZZ_SEED=${FUZZ_SEED} FUZZ_RUNS=${FUZZ_RUNS})\n` +
          `${fc.defaultReportMessage(result)}\n${String(result.errorInstance)}`,
      );
    }
  }
  expect(crashes).toEqual([]);
  expect((await t.app.request("/healthz")).status).toBe(200);
  expect((await t.app.request("/readyz")).status).toBe(200);
}, 600_000);
