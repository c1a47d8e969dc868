/**
 * Cold start of the stdio MCP server as a desktop host sees it: from spawning the command to the
 * answer of `tools/list`, then to the answer of the first tool call (which opens the database and
 * loads the model). Zero configuration: a fresh embedded database in a temp folder, the offline
 * embedder. Driven by the MCP SDK's own client, as hosts do.
 *
 *   npx tsx bench/mcp-cold-start.ts [--runs 5] [--command "node bin/memstream-mcp.js"]
 *
 * Prints each run and the median. `--command` times another launch line (e.g. an older checkout's
 * bin, for a before/after pair); runs of several commands are interleaved.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { quantile } from "./lib/stats";

const args = process.argv.slice(2);
const runs = Number(flag("--runs") ?? 5);
const commands = flags("--command");
if (commands.length === 0) commands.push(`${process.execPath} bin/memstream-mcp.js`);

type Run = { listMs: number; firstCallMs: number };
const results = new Map<string, Run[]>(commands.map((c) => [c, []]));

for (let i = 0; i < runs; i++) {
  for (const command of i % 2 ? [...commands].reverse() : commands) {
    const run = await coldStart(command);
    results.get(command)?.push(run);
    console.log(`${command}  run ${i + 1}: tools/list ${run.listMs} ms, first recall ${run.firstCallMs} ms`);
  }
}
for (const [command, rs] of results) {
  const med = (xs: number[]) => Math.round(quantile(xs, 0.5));
  console.log(
    `${command}: median tools/list ${med(rs.map((r) => r.listMs))} ms, first recall ${med(rs.map((r) => r.firstCallMs))} ms (${rs.length} runs)`,
  );
}

async function coldStart(command: string): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), "memstream-mcp-bench-"));
  const [bin, ...rest] = command.split(" ");
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: bin ?? process.execPath,
    args: rest,
    env: { PATH: process.env.PATH ?? "", MEMSTREAM_DATA_DIR: dataDir, MEMSTREAM_MCP_AGENT: "bench" },
    stderr: "ignore",
  });
  const client = new Client({ name: "memstream-bench", version: "1" });
  try {
    await client.connect(transport);
    const tools = await client.listTools();
    const listMs = Math.round(performance.now() - t0);
    if (tools.tools.length === 0) throw new Error("no tools listed");
    await client.callTool({ name: "recall", arguments: { query: "anything?" } });
    return { listMs, firstCallMs: Math.round(performance.now() - t0) };
  } finally {
    await client.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function flag(name: string): string | undefined {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
}
function flags(name: string): string[] {
  return args.flatMap((a, i) => (a === name && args[i + 1] ? [args[i + 1] as string] : []));
}
