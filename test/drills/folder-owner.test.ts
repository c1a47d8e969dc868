import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, text } from "../mcp/scenario";
import { type Spawned, spawnEntry } from "../support/spawn";
import { type Stub, startStubOpenAI } from "../support/stub-openai";

// One owner per embedded data folder (docs/adr/0031), with real processes on one real folder: a
// server (`npm start`) and the stdio MCP server (`node bin/memstream-mcp.js`, as a desktop host runs
// it), in both orders, with kill -9 of the owner between writes. Every acknowledged write must be
// there afterwards, and each process's own answer says what happened.
const AGENT = "owner-drill";
let stub: Stub;
let dir: string;
const running: Spawned[] = [];
let mcp: Client | null = null;
const mcpLog: string[] = [];

const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? "",
  // Zero-config (no DATABASE_URL) on this test's folder; the model stub spares the CPU of the offline one.
  MEMSTREAM_DATA_DIR: join(dir, "data"),
  OPENAI_BASE_URL: stub.url,
  OPENAI_API_KEY: "test",
  EMBEDDING_PROVIDER: "openai",
  EMBEDDING_MODEL: "stub-embed",
  EMBEDDING_DIMENSIONS: "64",
  OPENAI_MAX_RETRIES: "0",
  MEMSTREAM_SUPERSESSION: "off",
  PORT: "0",
  ...extra,
});

async function startServer(): Promise<{ server: Spawned; url: string }> {
  const server = spawnEntry("src/server.ts", env());
  running.push(server);
  const listening = await server.waitForLog(/^listening$/, 120_000);
  return { server, url: listening.url as string };
}

async function startMcp(): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["bin/memstream-mcp.js"],
    env: env({ MEMSTREAM_MCP_AGENT: AGENT }) as Record<string, string>,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d: Buffer) => mcpLog.push(d.toString()));
  const client = new Client({ name: "owner-drill", version: "1" });
  await client.connect(transport);
  return client;
}

async function killHard(p: Spawned) {
  p.child.kill("SIGKILL");
  await p.exited;
}

async function remember(client: Client, description: string) {
  const r = await call(client, "remember", { description, importance: 5 });
  expect(text(r), description).toMatch(/^Stored 1 memory for owner-drill: mem_/);
}

async function descriptions(url: string): Promise<string[]> {
  const res = await fetch(`${url}/v1/agents/${AGENT}/memories?limit=100`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { memories: { description: string }[] };
  return body.memories.map((m) => m.description).sort();
}

async function postMemory(url: string, description: string) {
  const res = await fetch(`${url}/v1/agents/${AGENT}/memories`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ description, importance: 5 }),
  });
  expect(res.status).toBe(201);
}

const lockOf = () =>
  JSON.parse(readFileSync(join(dir, "data.lock"), "utf8")) as { pid: number; url: string | null };

beforeAll(async () => {
  stub = await startStubOpenAI();
  dir = mkdtempSync(join(tmpdir(), "memstream-owner-"));
});
afterAll(async () => {
  await mcp?.close();
  for (const p of running) if (p.child.exitCode === null) await killHard(p);
  await stub?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("one owner per embedded data folder", () => {
  it("server first, then the MCP server, kill -9 between writes, both orders: every acknowledged write survives", async () => {
    // 1. A server owns the folder; the MCP server's writes land in it, next to the server's own.
    const first = await startServer();
    expect(lockOf()).toMatchObject({ pid: first.server.child.pid, url: first.url });
    mcp = await startMcp();
    await remember(mcp, "m1 through the MCP server while a server owns the folder");
    await postMemory(first.url, "s1 through the server's API");
    await remember(mcp, "m2 through the MCP server");
    expect(await descriptions(first.url)).toHaveLength(3);

    // 2. A second server on the folder refuses, naming the owner.
    const second = spawnEntry("src/server.ts", env());
    running.push(second);
    const refusal = await second.waitForLog(/^cannot start: /, 120_000);
    expect(refusal.msg).toContain(`in use by process ${first.server.child.pid}`);
    expect(refusal.msg).toContain(first.url);
    expect(await second.exited).toBe(1);

    // 3. kill -9 of the owner: the MCP server's next write finds the folder free and opens it itself.
    await killHard(first.server);
    await remember(mcp, "m3 after the server was killed");
    expect(lockOf().pid).not.toBe(first.server.child.pid);

    // 3b. A second MCP server on the folder (another desktop host): its call answers at once, naming
    // the first and what to do; it opens nothing.
    const other = await startMcp();
    try {
      const t0 = Date.now();
      const r = await call(other, "remember", { description: "from a second host", importance: 5 });
      // At once: a host gives a tool call about a minute, and this owner never gets a URL.
      expect(Date.now() - t0).toBeLessThan(10_000);
      expect(r.isError).toBe(true);
      expect(text(r)).toMatch(
        new RegExp(`^unavailable: .*in use by process ${lockOf().pid} \\(memstream stdio MCP server\\)`),
      );
      expect(text(r)).toContain("npm start");
    } finally {
      await other.close();
    }

    // 4. MCP first, then a server: the MCP server hands the folder over and sends its calls there.
    const third = await startServer();
    expect(third.server.logs.some((l) => /asking it to hand it over/.test(String(l.msg)))).toBe(true);
    await remember(mcp, "m4 through the MCP server, sent to the new server");
    expect(mcpLog.join("")).toContain("handed the folder over");
    expect(await descriptions(third.url)).toEqual(
      [
        "m1 through the MCP server while a server owns the folder",
        "s1 through the server's API",
        "m2 through the MCP server",
        "m3 after the server was killed",
        "m4 through the MCP server, sent to the new server",
      ].sort(),
    );

    // 5. kill -9 of that owner between writes: a new server takes the stale lock over; the MCP
    // server follows the folder to it.
    await postMemory(third.url, "s2 through the server's API");
    await killHard(third.server);
    const fourth = await startServer();
    await remember(mcp, "m5 through the MCP server, sent to the server after the restart");
    const all = await descriptions(fourth.url);
    expect(all).toHaveLength(7);
    expect(all).toContain("s2 through the server's API");
    expect(all).toContain("m5 through the MCP server, sent to the server after the restart");
  }, 600_000);
});
