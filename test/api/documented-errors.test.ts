import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../../src/api/errors";
import { ErrorCode } from "../../src/lib/errors";
import { PORTABLE_LIMITS } from "../../src/memory/portable/format";
import { SETUP_MS, TEST_DATABASE_URL, uniq } from "../support/env";
import { sign } from "../support/github";
import {
  documentedStatuses,
  EVENT_IDS,
  fillPath,
  loadDoc,
  type OpenApiDoc,
  type Operation,
  operations,
  otherMediaType,
  requestExample,
  requiredQuery,
} from "../support/openapi";
import { startTestSystem, type TestSystem } from "../support/system";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

/**
 * Walks /openapi.json and provokes, on every operation, each error it can run into (no key,
 * bad input, an oversized or non-JSON body, the database down); every answer must be a status
 * the operation documents, in the envelope, with the code's one status.
 */
const KEY = uniq("key");
const SECRET = uniq("secret");
const MAX_BODY = 2048;
const admin = { authorization: `Bearer ${KEY}` };

let proxy: TcpProxy;
let t: TestSystem;
let doc: OpenApiDoc;
let ops: Operation[];
beforeAll(async () => {
  const db = new URL(TEST_DATABASE_URL);
  proxy = await startTcpProxy({ host: db.hostname, port: Number(db.port || 5432) });
  db.host = `127.0.0.1:${proxy.port}`;
  t = await startTestSystem({
    env: {
      DATABASE_URL: db.toString(),
      MEMSTREAM_API_KEYS: KEY,
      MEMSTREAM_MAX_BODY_BYTES: String(MAX_BODY),
      GITHUB_WEBHOOK_SECRET: SECRET,
      LLM_MODEL: "stub-chat",
    },
  });
  doc = await loadDoc(t.app);
  ops = operations(doc);
}, SETUP_MS);
afterAll(async () => {
  await t.close();
  await proxy.close();
});

const WEBHOOK = "POST /webhooks/github";
const IMPORT = "POST /v1/agents/{agentId}/import";
const isV1 = (o: Operation) => o.path.startsWith("/v1/");
const agent = uniq("docerr");
const url = (o: Operation, agentId = agent) =>
  fillPath(o.path, { agentId, id: "mem_00000000000000000000", ...EVENT_IDS }) + requiredQuery(o.op);

type Init = { headers?: Record<string, string>; body?: string };

/** A request an operation accepts as far as input goes (its documented example body, a signed webhook). */
function valid(o: Operation): Init {
  if (o.name === WEBHOOK) {
    const body = JSON.stringify({ zen: "Keep it logically awesome." });
    return {
      body,
      headers: {
        "content-type": "application/json",
        "x-github-event": "ping",
        "x-github-delivery": uniq("d"),
        "x-hub-signature-256": sign(body, SECRET),
      },
    };
  }
  const example = requestExample(doc, o.op);
  const other = otherMediaType(o.op);
  if (other) return { headers: { ...admin, "content-type": other }, body: String(example) };
  return {
    headers: { ...admin, "content-type": "application/json" },
    body: example === undefined ? undefined : JSON.stringify(example),
  };
}

async function send(o: Operation, path: string, init: Init) {
  return t.app.request(path, { method: o.method, headers: init.headers, body: init.body });
}

/** The answer is documented for the operation and is the envelope with the code's own status. */
async function expectDocumentedError(o: Operation, res: Response, status: number, why: string) {
  expect(res.status, `${o.name} (${why})`).toBe(status);
  expect(documentedStatuses(o.op), `${o.name} answers ${status} (${why}) but does not document it`).toContain(
    status,
  );
  const body = (await res.json()) as {
    error: { code: ErrorCode; message: string; requestId: string; details?: { field?: unknown } };
  };
  if (status === 400)
    expect(typeof body.error.details?.field, `${o.name}: 400 names no field`).toBe("string");
  expect(ErrorCode.options, `${o.name}: unknown code`).toContain(body.error.code);
  expect(ERROR_STATUS[body.error.code], `${o.name}: code ${body.error.code} vs status`).toBe(status);
  expect(body.error.requestId).toBe(res.headers.get("x-request-id"));
}

describe("documented error responses", () => {
  it("the error schema carries the ErrorCode enum, and every error response uses it", () => {
    expect(doc.components.schemas.ErrorCode?.enum).toEqual(ErrorCode.options);
    expect(ops.length).toBeGreaterThan(10);
    for (const o of ops) {
      for (const [status, r] of Object.entries(o.op.responses)) {
        if (Number(status) < 400) continue;
        expect(r.content?.["application/json"]?.schema?.$ref, `${o.name} ${status}`).toBe(
          "#/components/schemas/Error",
        );
      }
      // Nothing can rule out a bug: every operation documents the 500 envelope.
      expect(documentedStatuses(o.op), o.name).toContain(500);
    }
  });

  it("401 without a key on every /v1 operation", async () => {
    for (const o of ops.filter(isV1)) {
      const init = valid(o);
      const res = await send(o, url(o), { ...init, headers: { "content-type": "application/json" } });
      await expectDocumentedError(o, res, 401, "no key");
    }
  });

  it("400 naming the field for a malformed agent id or query, or a webhook without its headers", async () => {
    for (const o of ops) {
      let res: Response;
      if (o.path.includes("{agentId}")) res = await send(o, url(o, "-bad agent"), valid(o));
      else if (o.path.includes("{id}")) res = await send(o, fillPath(o.path, { id: "bad id!" }), valid(o));
      else if (o.name === WEBHOOK) {
        const init = valid(o);
        const { "x-github-event": _, ...headers } = init.headers ?? {};
        res = await send(o, url(o), { ...init, headers });
      } else res = await send(o, `${url(o)}?limit=0`, valid(o));
      await expectDocumentedError(o, res, 400, "bad input");
    }
  });

  it("413 for a body over the limit on every operation that is not a GET", async () => {
    for (const o of ops.filter((o) => o.method !== "GET")) {
      const init = valid(o);
      // The webhook's limit is GitHub's 25 MB, an import's its own (it streams): announce a body over
      // it rather than build one.
      const announced =
        o.name === WEBHOOK
          ? 26 * 1024 * 1024
          : o.name === IMPORT
            ? PORTABLE_LIMITS.importBytes + 1
            : undefined;
      const headers = announced ? { ...init.headers, "content-length": String(announced) } : init.headers;
      const body = o.name === WEBHOOK ? init.body : JSON.stringify({ description: "x".repeat(MAX_BODY) });
      await expectDocumentedError(o, await send(o, url(o), { headers, body }), 413, "oversized body");
    }
  });

  it("415 for a body that is not JSON on every operation that takes a JSON body", async () => {
    const withBody = ops.filter((o) => o.op.requestBody?.content["application/json"]);
    expect(withBody.length).toBeGreaterThan(3);
    for (const o of withBody) {
      // Signed where that is checked first (the webhook), so the media type is what is refused.
      const init = o.name === WEBHOOK ? valid(o) : { headers: admin, body: "{}" };
      const res = await send(o, url(o), {
        headers: { ...init.headers, "content-type": "text/plain" },
        body: init.body,
      });
      await expectDocumentedError(o, res, 415, "text/plain body");
    }
  });

  it("404 for a memory id the agent does not have", async () => {
    for (const o of ops.filter((o) => o.path.includes("{id}"))) {
      await expectDocumentedError(o, await send(o, url(o), valid(o)), 404, "unknown id");
    }
  });

  it("503 on every operation while the database is down, and answers again when it is back", async () => {
    await proxy.down();
    try {
      for (const o of ops)
        await expectDocumentedError(o, await send(o, url(o), valid(o)), 503, "database down");
    } finally {
      await proxy.up();
    }
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await t.call("GET", `/v1/agents/${agent}/stats`, undefined, admin)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  });
});
