import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorCode } from "../../src/lib/errors";
import { listen } from "../support/listen";
import { loadDoc, type OpenApiDoc, operations, requestExample, resolve } from "../support/openapi";
import { startTestSystem, type TestSystem } from "../support/system";

/** The API reference: /openapi.json complete for every operation, /docs served with local assets. */
let t: TestSystem;
let server: Awaited<ReturnType<typeof listen>>;
let doc: OpenApiDoc;
beforeAll(async () => {
  t = await startTestSystem({ env: { MEMSTREAM_API_KEYS: "docs-key" } });
  server = await listen(t.app.fetch);
  doc = await loadDoc(t.app);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

describe("/openapi.json", () => {
  it("every operation has a unique operationId, a summary, tags and examples", () => {
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(10);
    const ids = new Set<string>();
    for (const o of ops) {
      expect(o.op.operationId, `${o.name}: operationId`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(ids.has(o.op.operationId ?? ""), `${o.name}: duplicate operationId`).toBe(false);
      ids.add(o.op.operationId ?? "");
      expect(o.op.summary?.length, `${o.name}: summary`).toBeGreaterThan(10);
      expect(o.op.tags?.length, `${o.name}: tags`).toBeGreaterThan(0);
      if (o.op.requestBody) expect(requestExample(doc, o.op), `${o.name}: request example`).toBeDefined();
      const success = Object.entries(o.op.responses).filter(([s, r]) => Number(s) < 300 && r.content);
      for (const [status, r] of success) {
        // JSON, or the one media type a streamed answer has (the export's JSON Lines).
        const media = r.content?.["application/json"] ?? Object.values(r.content ?? {})[0];
        const example = media?.example ?? resolve(doc, media?.schema)?.example;
        expect(example, `${o.name}: example of its ${status} response`).toBeDefined();
      }
    }
  });

  it("lists the error codes as an enum", () => {
    expect(doc.components.schemas.ErrorCode?.enum).toEqual(ErrorCode.options);
  });
});

describe("/docs", () => {
  it("serves the reference page and every asset it loads from this server, none from a CDN", async () => {
    const page = await fetch(`${server.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const html = await page.text();
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs) {
      expect(ref, "served by memstream itself").toMatch(/^\/docs\/assets\//);
      const res = await fetch(`${server.url}${ref}`);
      expect(res.status, ref).toBe(200);
      expect((await res.arrayBuffer()).byteLength, ref).toBeGreaterThan(100);
    }
    const init = await (await fetch(`${server.url}/docs/assets/init.js`)).text();
    expect(init).toContain('"/openapi.json"');
    const bundle = await fetch(`${server.url}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.headers.get("content-type")).toMatch(/javascript/);
  });

  it("needs no API key (like /openapi.json), and unknown assets are a 404 in the envelope", async () => {
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
    const missing = await fetch(`${server.url}/docs/assets/..%2Fpackage.json`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});
