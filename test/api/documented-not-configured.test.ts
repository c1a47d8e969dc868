import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETUP_MS, uniq } from "../support/env";
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

/**
 * A server with nothing optional configured (no LLM, no GitHub webhook secret) answers every
 * operation's documented example; whatever it answers, 501 `not_configured` included, is a status
 * the operation documents, so a mock server or a generated client built from the document (Prism
 * answers the example 200 for an undocumented status) tells the truth.
 */
const KEY = uniq("key");
const admin = { authorization: `Bearer ${KEY}` };
let t: TestSystem;
let doc: OpenApiDoc;
let ops: Operation[];
beforeAll(async () => {
  t = await startTestSystem({ env: { MEMSTREAM_API_KEYS: KEY } });
  doc = await loadDoc(t.app);
  ops = operations(doc);
}, SETUP_MS);
afterAll(async () => {
  await t?.close();
});

const agent = uniq("notconf");

describe("a server without an LLM or webhook secret", () => {
  it("answers only documented statuses on every operation, and 501 not_configured where a feature is off", async () => {
    const notConfigured: string[] = [];
    for (const o of ops) {
      const example = requestExample(doc, o.op);
      const other = otherMediaType(o.op);
      let headers: Record<string, string> = { ...admin, "content-type": other ?? "application/json" };
      let body = example === undefined ? undefined : other ? String(example) : JSON.stringify(example);
      if (o.name === "POST /webhooks/github") {
        body = JSON.stringify({ zen: "Keep it logically awesome." });
        headers = {
          "content-type": "application/json",
          "x-github-event": "ping",
          "x-github-delivery": uniq("d"),
          "x-hub-signature-256": sign(body, "any secret: the server has none"),
        };
      }
      const path =
        fillPath(o.path, { agentId: agent, id: "mem_00000000000000000000", ...EVENT_IDS }) +
        requiredQuery(o.op);
      const res = await t.app.request(path, { method: o.method, headers, body });
      expect(documentedStatuses(o.op), `${o.name} answers ${res.status} but does not document it`).toContain(
        res.status,
      );
      if (res.status === 501) {
        const answer = (await res.json()) as { error: { code: string } };
        expect(answer.error.code, o.name).toBe("not_configured");
        notConfigured.push(o.name);
      }
    }
    // What needs a feature the server lacks; each documents its 501.
    expect(notConfigured.sort()).toEqual(["POST /v1/agents/{agentId}/reflect", "POST /webhooks/github"]);
  });
});
