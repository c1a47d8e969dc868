import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { parseArgs } from "node:util";
import { loadConfig } from "../config";
import { openDatabase } from "../db/client";
import { DomainError } from "../lib/errors";
import { progressBar } from "../lib/progress-bar";
import { announceNothing } from "../memory/events";
import { exportAgent } from "../memory/portable/export-stream";
import { importAgent } from "../memory/portable/import-stream";
import { systemClock } from "../providers/types";

// `memstream <command>`: the stream's commands, against the configured database (DATABASE_URL, or
// the embedded one in MEMSTREAM_DATA_DIR) or a running server (--url, --key).
const USAGE = `usage: memstream <command> [options]

commands:
  export <agentId> [--out FILE]     write the agent's stream as JSON Lines (default: stdout)
  import <agentId> [FILE]           read a stream written by export (default: stdin), all or nothing;
                                    a re-run adds nothing

options:
  --url URL     talk to a memstream server instead of opening the database (e.g. http://localhost:3000)
  --key KEY     its API key (or MEMSTREAM_KEY)
  --quiet       no progress on stderr
  -h, --help    this help

exit codes: 0 done, 1 failed, 2 usage, 3 the file was refused (the message names its line and field)
`;

const EXIT = { ok: 0, failed: 1, usage: 2, refused: 3 } as const;

class Refused extends Error {}

function usage(message?: string): never {
  if (message) process.stderr.write(`memstream: ${message}\n\n${USAGE}`);
  else process.stdout.write(USAGE);
  process.exit(message ? EXIT.usage : EXIT.ok);
}

let args: ReturnType<typeof parse>;
const parse = () =>
  parseArgs({
    allowPositionals: true,
    options: {
      out: { type: "string" },
      url: { type: "string" },
      key: { type: "string" },
      quiet: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
try {
  args = parse();
} catch (err) {
  usage(err instanceof Error ? err.message : String(err));
}
const { values, positionals } = args;
const [command, agentId, file, ...extra] = positionals;
if (values.help || !command) usage();
if (command !== "export" && command !== "import") usage(`unknown command ${command}`);
if (!agentId) usage(`${command} needs an agent id`);
if (extra.length > 0 || (command === "export" && file)) usage(`unexpected argument ${extra[0] ?? file}`);

const bar = values.quiet ? null : progressBar();
const key = values.key ?? process.env.MEMSTREAM_KEY;

/** Writes to a file or stdout, waiting when it is full (a stream never piles up in memory). */
function output(path: string | undefined) {
  const out = path ? createWriteStream(path) : process.stdout;
  return {
    async write(chunk: string) {
      if (!out.write(chunk)) await once(out, "drain");
    },
    async close() {
      if (out !== process.stdout)
        await new Promise<void>((resolve, reject) =>
          out.end((e?: Error | null) => (e ? reject(e) : resolve())),
        );
    },
  };
}

/** Counts the lines (memories) written for the progress bar, from the header's total. */
function exportProgress() {
  let total: number | null = null;
  let done = 0;
  return (chunk: string) => {
    if (!bar) return;
    if (total === null && chunk.startsWith('{"type":"header"')) {
      total = (JSON.parse(chunk.slice(0, chunk.indexOf("\n"))) as { memories: number }).memories;
    }
    for (let i = chunk.indexOf('{"type":"memory"'); i !== -1; i = chunk.indexOf('\n{"type":"memory"', i + 1))
      done++;
    bar.draw("export", Math.min(done, total ?? done), total);
  };
}

async function overHttp(url: string): Promise<void> {
  const path = `${url.replace(/\/$/, "")}/v1/agents/${encodeURIComponent(agentId as string)}/${command}`;
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  let res: Response;
  if (command === "export") {
    res = await fetch(path, { headers });
    if (res.ok && res.body) {
      const out = output(values.out);
      const progress = exportProgress();
      const decoder = new TextDecoder();
      for await (const bytes of res.body) {
        const chunk = decoder.decode(bytes, { stream: true });
        progress(chunk);
        await out.write(chunk);
      }
      await out.close();
      bar?.end();
      return;
    }
  } else {
    const body = file ? createReadStream(file) : process.stdin;
    res = await fetch(path, {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-ndjson" },
      body: body as unknown as ReadableStream,
      duplex: "half",
    } as RequestInit);
    if (res.ok) {
      process.stdout.write(`${JSON.stringify(await res.json())}\n`);
      return;
    }
  }
  const text = await res.text();
  let message = text;
  try {
    message = (JSON.parse(text) as { error: { message: string } }).error.message;
  } catch {}
  if (res.status === 400 || res.status === 413 || res.status === 415) throw new Refused(message);
  throw new Error(`${res.status}: ${message}`);
}

async function direct(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    distributed: config.distributed,
    role: `memstream ${command}`,
  });
  try {
    await database.migrate();
    // Enrichment left pending is found by the workers' sweep: the database holds it.
    const deps = { db: database.db, clock: systemClock, announce: announceNothing };
    if (command === "export") {
      const out = output(values.out);
      const progress = exportProgress();
      await exportAgent(deps, agentId as string, async (chunk) => {
        progress(chunk);
        await out.write(chunk);
      });
      await out.close();
      bar?.end();
      return;
    }
    const report = await importAgent(deps, agentId as string, file ? createReadStream(file) : process.stdin);
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } catch (err) {
    if (err instanceof DomainError && err.code === "invalid_request") throw new Refused(err.message);
    throw err;
  } finally {
    await database.close();
  }
}

try {
  await (values.url ? overHttp(values.url) : direct());
  process.exitCode = EXIT.ok;
} catch (err) {
  bar?.end();
  process.stderr.write(`memstream ${command}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = err instanceof Refused ? EXIT.refused : EXIT.failed;
}
