import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { type Stub, startStubOpenAI } from "../support/stub-openai";
import { testSystemEnv } from "../support/system";
import { call, exerciseTools, TOOL_NAMES, text } from "./scenario";

// `npx memstream-mcp` as a desktop host runs it: a child process speaking JSON-RPC on stdio,
// driven by the SDK's own client. It reaches the real test database and the model stub.
let stub: Stub;
let client: Client;
const agent = uniq("mcp-stdio");
const stderr: string[] = [];

beforeAll(async () => {
  stub = await startStubOpenAI();
  const transport = new StdioClientTransport({
    command: process.execPath,
    // The bin, as hosts run it: a bundle of the current source (never a stale dist/).
    args: ["bin/memstream-mcp.js"],
    env: {
      PATH: process.env.PATH ?? "",
      ...testSystemEnv(stub.url),
      LLM_MODEL: "stub-chat",
      MEMSTREAM_MCP_AGENT: agent,
      // No workers: their sweep would pick up other test files' pending rows in the shared database.
      MEMSTREAM_WORKERS: "off",
    },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d: Buffer) => stderr.push(d.toString()));
  client = new Client({ name: "memstream-test", version: "1" });
  await client.connect(transport);
}, 120_000);
afterAll(async () => {
  await client?.close();
  await stub?.close();
});

describe("MCP over stdio (npm run mcp)", () => {
  it("lists its tools before it opens the database, and a tool call then says it is unavailable", async () => {
    // Nothing listens on port 1: only a tool call needs the database, so listing must not wait for it.
    const lazy = new StdioClientTransport({
      command: process.execPath,
      args: ["bin/memstream-mcp.js"],
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: "postgres://postgres@127.0.0.1:1/none",
        MEMSTREAM_MCP_AGENT: agent,
        MEMSTREAM_WORKERS: "off",
      },
      stderr: "ignore",
    });
    const c = new Client({ name: "memstream-test", version: "1" });
    try {
      await c.connect(lazy);
      expect((await c.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
      const r = await call(c, "stats", {});
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(/^unavailable: /);
    } finally {
      await c.close();
    }
  });

  it("initializes, lists the tools and runs each against Postgres with the default agent", async () => {
    expect(client.getServerVersion()?.name).toBe("memstream");
    await exerciseTools(client, stub, agent);
    // Logs went to stderr, never into the JSON-RPC stream on stdout.
    expect(stderr.join("")).toContain("MCP server on stdio");
  }, 60_000);
});
