import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { listen } from "../support/listen";
import { startTestSystem, type TestSystem } from "../support/system";
import { call, exerciseTools, rowsOf, text } from "./scenario";

// MCP over streamable HTTP at /mcp on the real server (a listening port), with the SDK's own client.
const tenant = uniq("mcp-tenant");
let t: TestSystem;
let server: Awaited<ReturnType<typeof listen>>;
const open: Client[] = [];

beforeAll(async () => {
  t = await startTestSystem({
    env: { LLM_MODEL: "stub-chat", MEMSTREAM_API_KEYS: `admin-key,scoped-key=${tenant}:` },
  });
  server = await listen(t.app.fetch);
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await server?.close();
  await t?.close();
});

async function connect(headers: Record<string, string>) {
  const client = new Client({ name: "memstream-test", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } }),
  );
  open.push(client);
  return client;
}

describe("counts of every kind (MCP stats and the /ui header)", () => {
  it("name document sections and outcomes beside observations, adding up to the total", async () => {
    const agent = uniq("mcp-kinds");
    const admin = { authorization: "Bearer admin-key" };
    const v1 = (rest: string, body: unknown) => t.call("POST", `/v1/agents/${agent}${rest}`, body, admin);
    expect((await v1("/memories", { description: "the deploy went fine" })).status).toBe(201);
    const doc = await v1("/documents", {
      source: "runbook.md",
      content: "# One\n\nfirst part\n\n# Two\n\nsecond part",
    });
    expect(doc.status).toBe(201);
    const sections = ((await doc.json()) as { sections: number }).sections;
    expect(sections).toBeGreaterThan(1);
    expect((await v1("/outcomes", { task: "Deploy", taskType: "deploy", success: true })).status).toBe(201);
    const expected = `${sections + 2} memories: 1 observation, ${sections} document sections, 1 outcome`;

    const client = await connect(admin);
    expect(text(await call(client, "stats", { agentId: agent }))).toContain(`${agent}: ${expected}`);

    const login = await t.app.request("/ui/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "key=admin-key&next=%2Fui",
    });
    const cookie = login.headers.get("set-cookie")?.split(";")[0] ?? "";
    const page = await t.app.request(`/ui/agents/${agent}`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(expected);
  });
});

describe("MCP over streamable HTTP", () => {
  it("initializes, lists the tools and runs each against Postgres (agent per call)", async () => {
    const client = await connect({ authorization: "Bearer admin-key" });
    expect(client.getServerVersion()?.name).toBe("memstream");
    expect(client.getInstructions()).toContain("recall");
    const agent = uniq("mcp-http");
    await exerciseTools(client, t.stub, agent, agent);
  });

  it("uses the connection's default agent from the X-Memstream-Agent header", async () => {
    const agent = `${tenant}:default`;
    const client = await connect({ authorization: "Bearer scoped-key", "x-memstream-agent": agent });
    await exerciseTools(client, t.stub, agent);
  });

  it("keeps a scoped key inside its agent prefix, as /v1 does", async () => {
    const client = await connect({ authorization: "Bearer scoped-key" });
    const outside = uniq("mcp-other");
    const res = await call(client, "remember", { agentId: outside, description: "should not be stored" });
    expect(res.isError).toBe(true);
    expect(text(res)).toBe(`not_found: agent ${outside} not found`);
    expect(await rowsOf(outside)).toEqual([]);
  });

  it("answers tool errors the model can act on: missing agent, bad input", async () => {
    const client = await connect({ authorization: "Bearer admin-key" });
    const noAgent = await call(client, "stats", {});
    expect(noAgent.isError).toBe(true);
    expect(text(noAgent)).toMatch(/^invalid_request: agentId is required/);
    const neither = await call(client, "remember", { agentId: uniq("mcp-bad") });
    expect(text(neither)).toMatch(/^invalid_request: description is required/);
    const badAgent = await call(client, "stats", { agentId: "/nope" });
    expect(text(badAgent)).toMatch(/^invalid_request: agentId must be/);
    // Schema violations are caught by the SDK against the published JSON schema.
    const tooImportant = await call(client, "remember", {
      agentId: uniq("mcp-bad"),
      description: "x",
      importance: 11,
    });
    expect(tooImportant.isError).toBe(true);
    expect(text(tooImportant)).toContain("importance");
  });

  it("refuses a missing key and a default agent outside the key's prefix before any MCP exchange", async () => {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: JSON.stringify(init),
      });
    const anonymous = await post({});
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    const outside = await post({ authorization: "Bearer scoped-key", "x-memstream-agent": "someone-else" });
    expect(outside.status).toBe(404);
    const get = await fetch(`${server.url}/mcp`, { headers: { authorization: "Bearer admin-key" } });
    expect(get.status).toBe(405);
  });
});
