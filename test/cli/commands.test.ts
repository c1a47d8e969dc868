import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/kit/main";
import { lockPathOf } from "../../src/db/folder-lock";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";
import { DOC_PAGES, shellCommands } from "../support/readme-curls";
import { childEnv, type Spawned, spawnEntry } from "../support/spawn";
import { type Stub, startStubOpenAI } from "../support/stub-openai";
import { testSystemEnv } from "../support/system";

// The `memstream` commands: in this process through `main` (the code bin/memstream.js runs, with
// its streams and environment handed in), and as processes where exiting and the bin matter.
type Result = { code: number; stdout: string; stderr: string };

/** Runs `memstream <args>` in this process with `env` as its whole environment. */
async function cli(args: string[], env: Record<string, string> = {}, stdin = ""): Promise<Result> {
  let stdout = "";
  let stderr = "";
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk, _enc, done) {
        append(String(chunk));
        done();
      },
    });
  const io = {
    stdout: sink((s) => {
      stdout += s;
    }),
    stderr: sink((s) => {
      stderr += s;
    }),
    stdin: Readable.from([stdin]),
    env,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** Runs `node bin/memstream.js <args>` as a user does. */
const bin = (args: string[], env: Record<string, string>) =>
  new Promise<Result>((resolve) => {
    execFile(
      process.execPath,
      ["bin/memstream.js", ...args],
      { env: { PATH: process.env.PATH ?? "", MEMSTREAM_LOG_LEVEL: "warn", ...env }, timeout: 120_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
/** A process starts tsx and opens the database: seconds of CPU on a loaded machine. */
const SPAWN_MS = 120_000;

const COMMANDS = [
  "serve",
  "migrate",
  "remember",
  "retrieve",
  "stats",
  "export",
  "import",
  "import-docs",
  "import-github",
  "backfill",
];

let stub: Stub;
let direct: Record<string, string>;
beforeAll(async () => {
  stub = await startStubOpenAI();
  direct = testSystemEnv(stub.url);
});
afterAll(() => stub?.close());

describe("memstream --help and usage errors", () => {
  it("lists every command with the exit codes, and each command's --help says its usage and exit codes", async () => {
    const top = await cli(["--help"]);
    expect(top.code).toBe(0);
    for (const name of COMMANDS) expect(top.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    expect(top.stdout).toContain("exit codes: 0 done, 1 failed, 2 usage error");
    for (const name of COMMANDS) {
      const help = await cli([name, "--help"]);
      expect(help.code, name).toBe(0);
      expect(help.stdout, name).toContain(`usage: memstream ${name}`);
      expect(help.stdout, name).toMatch(/exit codes: 0 done, 1 failed, 2 usage error/);
      expect(await cli(["help", name])).toEqual(help);
    }
  });

  it.each([
    [["stats"], "needs an agent id"],
    [["retrieve", "a1"], "needs a query"],
    [["retrieve", "a1", "q", "--k", "0"], "--k must be an integer 1..200"],
    [["retrieve", "a1", "q", "--kind", "dream"], "--kind dream is not one of"],
    [["remember", "a1"], "needs the text to store"],
    [["remember", "a1", "x", "--importance", "11"], "--importance must be an integer 1..10"],
    [["remember", "a1", "x", "--metadata", "[1]"], "--metadata must be a JSON object"],
    [["stats", "a1", "--bogus"], "Unknown option '--bogus'"],
    [["migrate", "now"], "unexpected argument now"],
    [["serve", "--port", "http"], "--port must be an integer 0..65535"],
    [["import-docs", "docs"], "needs --agent <id>"],
    [["import-github", "not-a-repo"], "not-a-repo is not a repository"],
    [["backfill"], "needs --model"],
  ])("memstream %j exits 2 naming the problem, then the command's usage", async (args, problem) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`memstream ${args[0]}: `);
    expect(r.stderr).toContain(problem);
    expect(r.stderr).toContain(`usage: memstream ${args[0]}`);
    expect(r.stdout).toBe("");
  });

  it("every `memstream …` line in the docs names a command and options it takes", async () => {
    const lines = DOC_PAGES.flatMap((page) =>
      [...readFileSync(page, "utf8").matchAll(/```(?:sh|bash)\n([\s\S]*?)\n```/g)].flatMap((m) =>
        shellCommands(m[1] as string)
          // `memstream …`, after any VAR=value the line sets for it.
          .map((words) => words.slice(words.findIndex((w) => !/^[A-Z_]+=/.test(w))))
          .filter((words) => words[0] === "memstream")
          // A redirection is the shell's, not the command's.
          .map((words) => (words.includes("<") ? words.slice(0, words.indexOf("<")) : words)),
      ),
    );
    expect(lines.length).toBeGreaterThan(10);
    for (const words of lines) {
      const r = await cli([...words.slice(1), "--help"]);
      expect(r.code, `${words.join(" ")}: ${r.stderr}`).toBe(0);
    }
  });

  it(
    "as a process: the exit code is the command's, the problem on stderr",
    async () => {
      const r = await bin(["retrieve", "a1", "--k", "5"], {});
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("memstream retrieve: needs a query");
    },
    SPAWN_MS,
  );
});

describe("remember → retrieve → stats", () => {
  it(
    "against a server started by `memstream serve`, with its API key, human and --json",
    async () => {
      let server: Spawned | undefined;
      try {
        server = spawnEntry(
          "bin/memstream.js",
          childEnv(stub, { MEMSTREAM_API_KEYS: "cli-secret", MEMSTREAM_LOG_LEVEL: "info" }),
          ["serve", "--port", "0"],
        );
        const listening = await server.waitForLog(/^listening$/, SPAWN_MS);
        const url = String(listening.url);
        const agent = uniq("cli-http");
        const env = { MEMSTREAM_URL: url, MEMSTREAM_API_KEY: "cli-secret" };

        const refused = await cli(["stats", agent], { MEMSTREAM_URL: url });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain("401 unauthorized");

        const one = await cli(
          ["remember", agent, "the", "build", "failed", "on", "main", "--importance", "7"],
          env,
        );
        expect(one.code, one.stderr).toBe(0);
        expect(one.stdout).toMatch(new RegExp(`^stored 1 memory for ${agent} in the server at ${url}: mem_`));
        const lines = await cli(
          ["remember", agent, "-", "--json", "--quiet"],
          env,
          "lunch was late\n\nwe shipped\n",
        );
        expect(lines.code, lines.stderr).toBe(0);
        expect(JSON.parse(lines.stdout)).toMatchObject({
          agentId: agent,
          ids: [expect.any(String), expect.any(String)],
        });

        const json = await cli(
          ["retrieve", agent, "build failed on main", "--json", "--url", url, "--key", "cli-secret"],
          {},
        );
        expect(json.code, json.stderr).toBe(0);
        const hits = JSON.parse(json.stdout) as { memories: { description: string; importance: number }[] };
        expect(hits.memories).toHaveLength(3);
        expect(hits.memories[0]).toMatchObject({ description: "the build failed on main", importance: 7 });
        const human = await cli(["retrieve", agent, "build failed on main", "--k", "1"], env);
        expect(human.stdout).toMatch(
          /^ 1\. \d\.\d{3} {2}observation imp 7 .* the build failed on main {2}\(mem_\w+\)$/m,
        );
        expect(human.stdout).toContain("1 memory, ranked");

        const stats = await cli(["stats", agent], env);
        expect(stats.code, stats.stderr).toBe(0);
        expect(stats.stdout).toContain(`${agent}: 3 memories (3 observations)`);
        const counts = JSON.parse((await cli(["stats", agent, "--json"], env)).stdout);
        expect(counts).toMatchObject({ agentId: agent, total: 3, byKind: { observation: 3 } });
      } finally {
        server?.child.kill("SIGTERM");
        expect(await server?.exited).toBe(0);
      }
    },
    2 * SPAWN_MS,
  );

  it(
    "directly on the database (DATABASE_URL), and the process exits when done",
    async () => {
      const agent = uniq("cli-db");
      const stored = await cli(
        ["remember", agent, "Maria", "moved", "to", "Berlin", "--kind", "observation"],
        direct,
      );
      expect(stored.code, stored.stderr).toBe(0);
      expect(stored.stdout).toContain(`stored 1 memory for ${agent} in the database`);
      await cli(["remember", agent, "the coffee machine broke", "--importance", "2"], direct);

      // No workers ran: the query's words find it, and the retrieve embeds what is pending itself.
      const found = await cli(["retrieve", agent, "Maria moved to Berlin", "--json"], direct);
      expect(found.code, found.stderr).toBe(0);
      const answer = JSON.parse(found.stdout) as {
        memories: { description: string }[];
        freshness: { pending: number };
      };
      expect(answer.memories.map((m) => m.description)).toEqual([
        "Maria moved to Berlin",
        "the coffee machine broke",
      ]);
      expect(answer.freshness.pending).toBe(2);

      const stats = await bin(["stats", agent, "--json"], direct);
      expect(stats.code, stats.stderr).toBe(0);
      expect(JSON.parse(stats.stdout)).toMatchObject({
        total: 2,
        importance: { ready: 1, pending: 1 },
        embedding: { pending: 2 },
      });
    },
    SPAWN_MS,
  );

  it(
    "on an embedded folder a server holds: the commands use that server",
    async () => {
      // A lock naming this (live) process and a URL, as a server writes it once it listens.
      const dir = mkdtempSync(join(tmpdir(), "memstream-cli-folder-"));
      const dataDir = join(dir, "data");
      const { listen } = await import("../support/listen");
      const { startTestSystem } = await import("../support/system");
      const t = await startTestSystem();
      const server = await listen(t.app.fetch);
      try {
        writeFileSync(
          lockPathOf(dataDir),
          JSON.stringify({ pid: process.pid, started: null, role: "memstream server", url: server.url }),
        );
        const agent = uniq("cli-folder");
        const env = { MEMSTREAM_DATA_DIR: dataDir };
        const r = await cli(["remember", agent, "kept by the server"], env);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain(
          `held by memstream server (pid ${process.pid}); using it at ${server.url}`,
        );
        expect(r.stdout).toContain(`in the server at ${server.url}`);
        expect(JSON.parse((await cli(["stats", agent, "--json"], env)).stdout)).toMatchObject({ total: 1 });
      } finally {
        await server.close();
        await t.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    SPAWN_MS,
  );
});

describe("memstream migrate", () => {
  it(
    "migrates a fresh database, and a second run applies nothing",
    async () => {
      const db = await ownDatabase("cli_migrate");
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      try {
        const first = await bin(["migrate"], { DATABASE_URL: db.url });
        expect(first.code, first.stderr).toBe(0);
        expect(first.stdout).toBe("migrations applied to the database\n");
        const applied = async () =>
          Number((await sql`SELECT count(*) AS n FROM drizzle.__drizzle_migrations`)[0]?.n);
        const { entries } = JSON.parse(readFileSync("migrations/meta/_journal.json", "utf8")) as {
          entries: unknown[];
        };
        expect(await applied()).toBe(entries.length);
        expect((await sql`SELECT to_regclass('public.memories') AS t`)[0]?.t).toBe("memories");
        const again = await cli(["migrate"], { DATABASE_URL: db.url });
        expect(again.code, again.stderr).toBe(0);
        expect(await applied()).toBe(entries.length);
      } finally {
        await sql.end();
        await db.drop();
      }
    },
    SPAWN_MS,
  );

  it("a database it cannot reach is a failure (exit 1) that says why", async () => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${uniq("absent").replace(/-/g, "_")}`;
    const r = await cli(["migrate"], { DATABASE_URL: url.toString() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^memstream migrate: database ".*" does not exist/);
  });
});
