import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, it } from "vitest";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import { readmeSection, shellCommands } from "../support/readme-curls";
import { call, TOOL_NAMES, text } from "./scenario";

// The README's MCP host snippets (Claude Desktop, Claude Code, Cursor), read from the README,
// parsed as each host parses them, and launched as each host launches them: the command and
// arguments and env of the snippet, with the repository's path for /path/to/memstream. The server
// must list its tools and answer a call with the snippet's default agent. Only the database is
// ours (the test database instead of the repository's .memstream/data), and no workers run.
const SECTION = "MCP: memory as tools for any MCP host";
const ROOT = resolve(".");

type Launch = { command: string; args: string[]; env: Record<string, string> };

/** The first code block after the paragraph that names `host`, with its language. */
function snippetAfter(host: string): { lang: string; code: string } {
  const section = readmeSection(SECTION);
  const at = section.indexOf(`**${host}**`);
  if (at < 0) throw new Error(`the README's MCP section has no **${host}** snippet`);
  const m = /```(\w+)\n([\s\S]*?)\n```/.exec(section.slice(at));
  if (!m) throw new Error(`no code block after **${host}**`);
  return { lang: m[1] as string, code: m[2] as string };
}

/** An `mcpServers` JSON file as Claude Desktop and Cursor read it. */
function fromJson(code: string): Launch {
  const config = JSON.parse(code) as { mcpServers: Record<string, Partial<Launch>> };
  const server = config.mcpServers.memstream;
  if (!server?.command) throw new Error("no mcpServers.memstream.command");
  return { command: server.command, args: server.args ?? [], env: server.env ?? {} };
}

/** `claude mcp add <name> -e K=V … -- <command> <args…>` as Claude Code reads it. */
function fromClaudeAdd(code: string): Launch {
  const words = shellCommands(code).find((w) => w[0] === "claude");
  if (!words) throw new Error("no `claude` command");
  expect(words.slice(0, 4)).toEqual(["claude", "mcp", "add", "memstream"]);
  const dashes = words.indexOf("--");
  const env: Record<string, string> = {};
  const options = words.slice(4, dashes);
  for (let i = 0; i < options.length; i++) {
    if (options[i] === "-e" || options[i] === "--env") {
      const [k, ...v] = (options[++i] as string).split("=");
      env[k as string] = v.join("=");
    } else if (options[i] === "-s" || options[i] === "--scope") i++;
    else throw new Error(`claude mcp add option the test does not know: ${options[i]}`);
  }
  const [command, ...args] = words.slice(dashes + 1);
  return { command: command as string, args, env };
}

async function launch(l: Launch) {
  const args = l.args.map((a) => a.replace("/path/to/memstream", ROOT));
  const transport = new StdioClientTransport({
    // "node" as the host resolves it on PATH.
    command: l.command,
    args,
    env: {
      PATH: process.env.PATH ?? "",
      ...l.env,
      DATABASE_URL: TEST_DATABASE_URL,
      MEMSTREAM_WORKERS: "off",
    },
    stderr: "ignore",
  });
  const client = new Client({ name: "readme-host", version: "1" });
  await client.connect(transport);
  return client;
}

describe("README: MCP host snippets launch the stdio server", () => {
  for (const [host, parse] of [
    ["Claude Desktop", fromJson],
    ["Claude Code", fromClaudeAdd],
    ["Cursor", fromJson],
  ] as const) {
    it(`${host}: lists the tools and stores with the snippet's default agent`, async () => {
      const { lang, code } = snippetAfter(host);
      expect(lang).toBe(parse === fromJson ? "json" : "sh");
      const l = parse(code);
      expect(l.args.join(" ")).toContain("/path/to/memstream/bin/memstream-mcp.js");
      expect(l.env.MEMSTREAM_MCP_AGENT).toMatch(/\S/);
      const client = await launch(l);
      try {
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
        const r = await call(client, "remember", {
          description: `${host} was set up from the README ${uniq("run")}`,
        });
        expect(r.isError, text(r)).toBeFalsy();
        expect(text(r)).toContain(`for ${l.env.MEMSTREAM_MCP_AGENT}`);
      } finally {
        await client.close();
      }
    }, 90_000);
  }
});
