import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memories } from "../../src/db/schema";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import { fixtureRepo, startStubGithub } from "../support/stub-github";
import { startTestSystem, type TestSystem } from "../support/system";

// The commands as a user runs them (real processes, real database; GitHub is the stub).
const run = promisify(execFile);
const command = (script: string, args: string[], env: Record<string, string> = {}) =>
  run(process.execPath, ["--import", "tsx", script, ...args], {
    env: {
      ...process.env,
      DATABASE_URL: TEST_DATABASE_URL,
      MEMSTREAM_WORKERS: "off",
      MEMSTREAM_LOG_LEVEL: "info",
      ...env,
    },
    timeout: 120_000,
  });
/**
 * Each command is a process starting tsx and the app, seconds of CPU on its own: two of them took
 * 27.5 s of the default 30 s in a full run on a loaded 2-core machine. Two commands of up to
 * 120 s each (their own timeout) per test.
 */
const SPAWNS_MS = 240_000;
/** The counts of the command's closing log line (JSON on stderr). */
const closing = (stderr: string, msg: string) => {
  const line = stderr.split(/[\r\n]/).find((l) => l.includes(`"msg":"${msg}"`));
  return line ? (JSON.parse(line.trim()) as Record<string, unknown>) : null;
};

let t: TestSystem;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.close());
const count = async (agent: string) =>
  (await t.system.services.db.select().from(memories).where(eq(memories.agentId, agent))).length;

describe("memstream import-github", () => {
  it(
    "shows progress, prints the final counts, and a second run stores nothing",
    async () => {
      const name = uniq("cli");
      const stub = await startStubGithub(fixtureRepo("acme", name, 3), { pageSize: 2 });
      const agent = uniq("gh-cli");
      const env = { GITHUB_API_URL: stub.url, GITHUB_TOKEN: "t" };
      // 3 issues (opened, 2 closed), 3 pull requests (opened, closed, a review each), 2 releases, 3 commits
      const first = await command(
        "bin/memstream.js",
        ["import-github", `acme/${name}`, "--agent", agent],
        env,
      );
      expect(first.stderr).toMatch(new RegExp(`acme/${name} issues +\\[#+\\] 2/2 pages`));
      expect(closing(first.stderr, "GitHub import finished")).toMatchObject({ stored: 19, duplicates: 0 });
      expect(await count(agent)).toBe(19);
      // `npm run import:github` runs the same command.
      const second = await command("src/cli/import-github.ts", [`acme/${name}`, "--agent", agent], env);
      expect(closing(second.stderr, "GitHub import finished")).toMatchObject({ stored: 0, duplicates: 19 });
      expect(await count(agent)).toBe(19);
      await stub.close();
    },
    SPAWNS_MS,
  );

  it(
    "refuses a malformed repository with usage and exit code 2",
    async () => {
      const failed = await command("bin/memstream.js", ["import-github", "not-a-repo"]).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(failed).toMatchObject({ code: 2 });
      expect((failed as { stderr: string }).stderr).toContain("not-a-repo is not a repository");
      expect((failed as { stderr: string }).stderr).toContain("usage: memstream import-github");
    },
    SPAWNS_MS,
  );
});

describe("npm run import:docs (memstream import-docs)", () => {
  it(
    "imports a folder with progress and counts; unchanged files are left alone on a re-run",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "docs-"));
      writeFileSync(join(dir, "a.md"), "# A\n\nalpha\n\n## B\n\nbeta");
      writeFileSync(join(dir, "b.html"), "<h1>C</h1><p>gamma</p>");
      writeFileSync(join(dir, "skip.png"), "not a document");
      const agent = uniq("docs-cli");
      const first = await command("src/cli/import-docs.ts", [dir, "--agent", agent]);
      expect(first.stderr).toMatch(/import:docs \[#+\] 2\/2/);
      expect(closing(first.stderr, "documents imported")).toMatchObject({
        files: 2,
        sections: 3,
        created: 3,
        unchanged: 0,
      });
      writeFileSync(join(dir, "a.md"), "# A\n\nalpha\n\n## B\n\nbeta, revised");
      const second = await command("src/cli/import-docs.ts", [dir, "--agent", agent]);
      expect(closing(second.stderr, "documents imported")).toMatchObject({
        files: 2,
        created: 1,
        kept: 2,
        deleted: 1,
        unchanged: 1,
      });
      expect(await count(agent)).toBe(3);
    },
    SPAWNS_MS,
  );
});
