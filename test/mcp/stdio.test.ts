import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import { type Stub, startStubOpenAI } from "../support/stub-openai";
import { exerciseTools } from "./scenario";

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
    // The source through tsx: the bin would prefer a stale dist/ left by an earlier build.
    args: ["--import", "tsx", "src/cli/mcp.ts"],
    env: {
      PATH: process.env.PATH ?? "",
      DATABASE_URL: TEST_DATABASE_URL,
      OPENAI_BASE_URL: stub.url,
      OPENAI_API_KEY: "test",
      EMBEDDING_PROVIDER: "openai",
      EMBEDDING_MODEL: "stub-embed",
      EMBEDDING_DIMENSIONS: "64",
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
  it("initializes, lists the tools and runs each against Postgres with the default agent", async () => {
    expect(client.getServerVersion()?.name).toBe("memstream");
    await exerciseTools(client, stub, agent);
    // Logs went to stderr, never into the JSON-RPC stream on stdout.
    expect(stderr.join("")).toContain("MCP server on stdio");
  }, 60_000);
});
