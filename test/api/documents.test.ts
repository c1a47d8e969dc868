import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memories } from "../../src/db/schema";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// Document ingestion through the real app: splitting into `document` memories, re-import
// (replace, keep unchanged sections, no orphans), deletion, kinds in retrieval, errors, auth.
const s = uniq("docs");
const admin = { authorization: `Bearer admin-${s}` };
const tenant = { authorization: `Bearer tenant-${s}` };
let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem({ env: { MEMSTREAM_API_KEYS: `admin-${s},tenant-${s}=tenant-${s}:` } });
});
afterAll(() => t.close());

type Mem = { id: string; kind: string; description: string; metadata: Record<string, unknown> };
type Imported = {
  sections: number;
  created: number;
  kept: number;
  deleted: number;
  unchanged: boolean;
  title: string | null;
};
const path = (agent: string) => `/v1/agents/${encodeURIComponent(agent)}`;
const post = (agent: string, body: unknown, headers = admin) =>
  t.call("POST", `${path(agent)}/documents`, body, headers);

/** Every document memory of the agent from `source`, in position order, straight from the table. */
async function sectionsOf(agent: string, source: string) {
  const rows = await t.system.services.db
    .select()
    .from(memories)
    .where(
      and(
        eq(memories.agentId, agent),
        eq(memories.kind, "document"),
        sql`${memories.metadata}->>'source' = ${source}`,
      ),
    );
  return rows.sort((a, b) => Number(a.metadata.position) - Number(b.metadata.position));
}

const V1 = `# Billing service

Handles invoices.

## Retries

Failed charges are retried three times.

## Refunds

Refunds take five days.
`;

describe("POST /v1/agents/{agentId}/documents", () => {
  it("stores one document memory per section with source, heading path and position", async () => {
    const agent = uniq("d1");
    const res = await post(agent, { source: "docs/billing.md", content: V1, metadata: { team: "payments" } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      title: "Billing service",
      format: "markdown",
      sections: 3,
      created: 3,
      kept: 0,
      deleted: 0,
      unchanged: false,
    });
    const rows = await sectionsOf(agent, "docs/billing.md");
    expect(rows.map((r) => [r.description, r.metadata.headingPath, r.metadata.position])).toEqual([
      ["Billing service\n\nHandles invoices.", ["Billing service"], 0],
      [
        "Billing service › Retries\n\nFailed charges are retried three times.",
        ["Billing service", "Retries"],
        1,
      ],
      ["Billing service › Refunds\n\nRefunds take five days.", ["Billing service", "Refunds"], 2],
    ]);
    expect(rows[0]?.metadata).toMatchObject({
      source: "docs/billing.md",
      team: "payments",
      sections: 3,
      title: "Billing service",
    });
    expect(rows.every((r) => r.importanceStatus === "pending" && r.embeddingStatus === "pending")).toBe(true);
  });

  it("re-import replaces the previous version: unchanged sections kept, changed replaced, removed deleted", async () => {
    const agent = uniq("d2");
    await post(agent, { source: "billing.md", content: V1 });
    const before = await sectionsOf(agent, "billing.md");
    const v2 = V1.replace("three times", "five times").replace(
      "## Refunds\n\nRefunds take five days.\n",
      "## Disputes\n\nDisputes go to support.\n\n## Refunds\n\nRefunds take five days.\n",
    );
    const res = await post(agent, { source: "billing.md", content: v2 });
    expect(await res.json()).toMatchObject({
      sections: 4,
      created: 2,
      kept: 2,
      deleted: 1,
      unchanged: false,
    });
    const after = await sectionsOf(agent, "billing.md");
    expect(after.map((r) => r.description.split("\n\n")[1])).toEqual([
      "Handles invoices.",
      "Failed charges are retried five times.",
      "Disputes go to support.",
      "Refunds take five days.",
    ]);
    // Same text, same memory (its enrichment is not paid again); its position follows the new version.
    expect(after[0]?.id).toBe(before[0]?.id);
    expect(after[3]?.id).toBe(before[2]?.id);
    expect(after[3]?.metadata).toMatchObject({ position: 3, sections: 4 });
    expect(after[1]?.id).not.toBe(before[1]?.id);
    const all = await t.system.services.db.select().from(memories).where(eq(memories.agentId, agent));
    expect(all).toHaveLength(4);
  });

  it("an identical re-import changes nothing", async () => {
    const agent = uniq("d3");
    await post(agent, { source: "a.md", content: V1 });
    const before = await sectionsOf(agent, "a.md");
    const again = (await (await post(agent, { source: "a.md", content: V1 })).json()) as Imported;
    expect(again).toMatchObject({ unchanged: true, created: 0, deleted: 0, kept: 3 });
    const after = await sectionsOf(agent, "a.md");
    expect(after.map((r) => [r.id, r.updatedAt.toISOString()])).toEqual(
      before.map((r) => [r.id, r.updatedAt.toISOString()]),
    );
  });

  it("concurrent imports of one source never interleave: the result is exactly one version", async () => {
    const agent = uniq("d4");
    const versions = Array.from({ length: 4 }, (_, v) =>
      Array.from({ length: 3 + v }, (_, i) => `## V${v} part ${i}\n\nText ${v}.${i}`).join("\n\n"),
    );
    const answers = await Promise.all(versions.map((content) => post(agent, { source: "race.md", content })));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const rows = await sectionsOf(agent, "race.md");
    const version = rows[0]?.description.match(/V(\d)/)?.[1];
    expect(rows).toHaveLength(3 + Number(version));
    expect(rows.every((r) => r.description.includes(`V${version} `))).toBe(true);
    expect(rows.map((r) => r.metadata.position)).toEqual(rows.map((_, i) => i));
  });

  it("reads HTML and plain text; the format follows the extension unless given", async () => {
    const agent = uniq("d5");
    const html = await post(agent, {
      source: "https://example.com/guide.html",
      content: "<h1>Guide</h1><p>Step <b>one</b>.</p><script>x()</script>",
    });
    expect(await html.json()).toMatchObject({ format: "html", title: "Guide", sections: 1 });
    const text = await post(agent, {
      source: "notes",
      format: "text",
      title: "Notes",
      content: "# plain\nline",
    });
    expect(await text.json()).toMatchObject({ format: "text", sections: 1 });
    expect((await sectionsOf(agent, "https://example.com/guide.html"))[0]?.description).toBe(
      "Guide\n\nStep **one**.",
    );
    expect((await sectionsOf(agent, "notes"))[0]?.description).toBe("Notes\n\n# plain\nline");
  });

  it("rejects bad input naming the field or limit", async () => {
    const agent = uniq("d6");
    const field = async (res: Response) =>
      ((await res.json()) as { error: { details?: { field?: string } } }).error.details?.field;
    let res = await post(agent, { source: "", content: "x" });
    expect(res.status).toBe(400);
    expect(await field(res)).toBe("body.source");
    res = await post(agent, { source: "a", content: "x", maxTokens: 10 });
    expect(await field(res)).toBe("body.maxTokens");
    res = await post(agent, { source: "a", content: "x", format: "pdf" });
    expect(await field(res)).toBe("body.format");
    const many = Array.from({ length: 5001 }, (_, i) => `# h${i}\n\nx`).join("\n\n");
    res = await post(agent, { source: "a", content: many });
    expect(res.status).toBe(400);
    expect(await field(res)).toBe("content");
    // Characters Postgres text cannot hold: 400 naming the field, nothing stored.
    for (const [body, name] of [
      [{ source: "a", content: "# T\n\nNUL \u0000 here" }, "body.content"],
      [{ source: "a\u0000b", content: "x" }, "body.source"],
      [{ source: "a", content: "x", title: "\ud800" }, "body.title"],
    ] as const) {
      res = await post(agent, body);
      expect(res.status).toBe(400);
      expect(await field(res)).toBe(name);
    }
    // document sections are written by imports only
    res = await t.call("POST", `${path(agent)}/memories`, { description: "x", kind: "document" }, admin);
    expect(res.status).toBe(400);
    expect(await field(res)).toBe("body.kind");
  });

  it("needs an API key, and a scoped key only reaches its own agents", async () => {
    expect((await post(uniq("d7"), { source: "a", content: "x" }, {} as typeof admin)).status).toBe(401);
    expect((await post(`other-${s}`, { source: "a", content: "x" }, tenant)).status).toBe(404);
    expect((await post(`tenant-${s}:bot`, { source: "a", content: "x" }, tenant)).status).toBe(201);
  });
});

describe("listing, deleting and retrieving documents", () => {
  it("lists sources, deletes one with all its sections, 404s an unknown one", async () => {
    const agent = uniq("d8");
    await post(agent, { source: "a.md", content: V1 });
    await post(agent, { source: "b.md", content: "# B\n\nbee" });
    await t.call("POST", `${path(agent)}/memories`, { description: "an observation about billing" }, admin);
    const listed = await (await t.call("GET", `${path(agent)}/documents?limit=1`, undefined, admin)).json();
    expect(listed).toMatchObject({
      documents: [{ source: "a.md", sections: 3, title: "Billing service" }],
      next: "a.md",
    });
    const rest = await (await t.call("GET", `${path(agent)}/documents?after=a.md`, undefined, admin)).json();
    expect(rest).toMatchObject({ documents: [{ source: "b.md", sections: 1 }], next: null });

    const del = await t.call("DELETE", `${path(agent)}/documents?source=a.md`, undefined, admin);
    expect(await del.json()).toEqual({ source: "a.md", deleted: 3, derived: {} });
    expect(await sectionsOf(agent, "a.md")).toHaveLength(0);
    expect(await sectionsOf(agent, "b.md")).toHaveLength(1);
    const left = await t.system.services.db.select().from(memories).where(eq(memories.agentId, agent));
    expect(left.map((m) => m.kind).sort()).toEqual(["document", "observation"]);
    expect((await t.call("DELETE", `${path(agent)}/documents?source=a.md`, undefined, admin)).status).toBe(
      404,
    );
    const missing = await t.call("DELETE", `${path(agent)}/documents`, undefined, admin);
    expect(missing.status).toBe(400);
  });

  it("retrieval ranks sections like any memory, and kinds include or exclude them", async () => {
    const agent = uniq("d9");
    await post(agent, { source: "a.md", content: V1 });
    await t.call("POST", `${path(agent)}/memories`, { description: "bob asked about refunds" }, admin);
    const kinds = async (body: Record<string, unknown>) => {
      const res = await t.call(
        "POST",
        `${path(agent)}/retrieve`,
        { query: "refunds", relevance: "lexical", k: 10, ...body },
        admin,
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { memories: Mem[] }).memories.map((m) => m.kind);
    };
    expect((await kinds({})).sort()).toEqual(["document", "document", "document", "observation"]);
    expect(await kinds({ kinds: ["document"] })).toEqual(["document", "document", "document"]);
    expect(await kinds({ kinds: ["observation"] })).toEqual(["observation"]);
    const stats = await (await t.call("GET", `${path(agent)}/stats`, undefined, admin)).json();
    expect(stats).toMatchObject({ byKind: { document: 3, observation: 1 } });
  });
});
