import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_DATABASE_URL, uniq } from "../support/env";
import { listen } from "../support/listen";
import { stubEmbedding } from "../support/stub-vectors";
import { startTestSystem, type TestSystem } from "../support/system";

// `bin/memstream.js` as a user runs it: a real process against the real database, or a real server.
type Result = { code: number; stdout: string; stderr: string };
const memstream = (args: string[], env: Record<string, string> = {}) =>
  new Promise<Result>((resolve) => {
    execFile(
      process.execPath,
      ["bin/memstream.js", ...args],
      {
        env: {
          PATH: process.env.PATH ?? "",
          DATABASE_URL: TEST_DATABASE_URL,
          MEMSTREAM_LOG_LEVEL: "warn",
          ...env,
        },
        timeout: 120_000,
      },
      (err, stdout, stderr) => {
        const code = err ? Number((err as { code?: number }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
/** Each command starts tsx and opens the database: seconds of CPU on a loaded machine. */
const SPAWNS_MS = 240_000;

const agent = uniq("cli-src");
const dir = mkdtempSync(join(tmpdir(), "memstream-cli-"));
let t: TestSystem;
let server: { url: string; close(): Promise<void> };
beforeAll(async () => {
  t = await startTestSystem();
  server = await listen(t.app.fetch);
  const texts = ["the build failed", "we shipped the release", "lunch was late"];
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, {
    memories: texts.map((description) => ({
      description,
      importance: 3,
      embedding: stubEmbedding(description),
    })),
  });
  expect(res.status).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

describe("memstream (bin)", () => {
  it("--help answers the usage with exit 0, a bad command exit 2", async () => {
    const help = await memstream(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("usage: memstream <command>");
    expect(help.stdout).toContain("export <agentId>");
    const bad = await memstream(["frobnicate"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown command frobnicate");
    expect((await memstream(["import"])).code).toBe(2);
  });

  it(
    "exports from the database, imports into another agent, and a re-run adds nothing",
    async () => {
      const file = join(dir, "stream.jsonl");
      const out = await memstream(["export", agent, "--out", file, "--quiet"]);
      expect(out.code, out.stderr).toBe(0);
      expect(readFileSync(file, "utf8").trimEnd().split("\n")).toHaveLength(5);
      const target = uniq("cli-dst");
      const first = await memstream(["import", target, file]);
      expect(first.code, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ memories: { added: 3, existing: 0 }, vectors: 3 });
      const again = await memstream(["import", target, file]);
      expect(JSON.parse(again.stdout)).toMatchObject({ memories: { added: 0, existing: 3 } });
    },
    SPAWNS_MS,
  );

  it(
    "over HTTP (--url): export and import, and a refused file exits 3 naming its line",
    async () => {
      const file = join(dir, "http.jsonl");
      const out = await memstream(["export", agent, "--out", file, "--url", server.url]);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stderr).toMatch(/export +\[#+\] 3\/3/);
      const target = uniq("cli-http");
      const imported = await memstream(["import", target, file, "--url", server.url]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toMatchObject({ memories: { added: 3 } });

      const lines = readFileSync(file, "utf8").trimEnd().split("\n");
      lines[2] = (lines[2] ?? "").replace('"kind":"observation"', '"kind":"dream"');
      const bad = join(dir, "bad.jsonl");
      writeFileSync(bad, lines.join("\n"));
      for (const via of [[], ["--url", server.url]]) {
        const refused = await memstream(["import", uniq("cli-bad"), bad, ...via]);
        expect(refused.code).toBe(3);
        expect(refused.stderr).toContain("line 3: memory.kind");
      }
    },
    SPAWNS_MS,
  );
});
