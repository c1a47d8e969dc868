import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { listen } from "../support/listen";
import { startTestSystem, type TestSystem } from "../support/system";

// The Python client (clients/python, standard library only) run by Debian's pytest against the
// real server on a port, with a key scoped to this file's agents, then type-checked by mypy --strict
// (Debian's) and pyright (node_modules). scripts/install-python-tools.sh (run by `npm run test:python`)
// installs pytest and mypy; without python3, pytest or mypy this test fails, it never skips.
const prefix = `${uniq("py")}:`;
/** Debian's interpreter, where python3-pytest installs (not a pyenv or venv python on PATH). */
const PYTHON = process.env.MEMSTREAM_PYTHON ?? "/usr/bin/python3";
let t: TestSystem;
let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  t = await startTestSystem({ env: { MEMSTREAM_API_KEYS: `py-key=${prefix}` } });
  server = await listen(t.app.fetch);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

/** Runs a command to its end; resolves with its exit code and output. */
function run(command: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    // No __pycache__ left in the tree.
    const child = spawn(command, args, {
      cwd: "clients/python",
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", ...env },
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The ```python blocks of a Markdown file, each as one module. */
const pythonBlocks = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1] as string);

describe("Python client (clients/python)", () => {
  it("passes its pytest suite against the real server", async () => {
    const { code, output } = await run(PYTHON, ["-m", "pytest", "-q", "-p", "no:cacheprovider"], {
      MEMSTREAM_URL: server.url,
      MEMSTREAM_API_KEY: "py-key",
      MEMSTREAM_AGENT_PREFIX: prefix,
    });
    expect(code, output).toBe(0);
    // Every test ran (the tenant test skips only without a key, and this server has one).
    const passed = Number(/(\d+) passed/.exec(output)?.[1] ?? 0);
    expect(passed, output).toBeGreaterThanOrEqual(25);
    expect(output).not.toMatch(/skipped|error/);
  }, 60_000);

  it("runs its quick start example", async () => {
    const { code, output } = await run(PYTHON, ["examples/quickstart.py"], {
      MEMSTREAM_URL: server.url,
      MEMSTREAM_API_KEY: "py-key",
      MEMSTREAM_AGENT: `${prefix}barista`,
    });
    expect(code, output).toBe(0);
    expect(output).toMatch(/Klaus ordered an oat-milk flat white/);
    expect(output).toContain(`${prefix}barista has 4 memories`);
  }, 30_000);

  it("is clean under mypy --strict and pyright: the package, its tests, its example and the snippets in the docs", async () => {
    // The snippets as the reader copies them, beside the package (so `import memstream` resolves).
    const dir = mkdtempSync(join(tmpdir(), "memstream-py-snippets-"));
    const snippets = ["clients/python/README.md", "docs/integrations.md"].flatMap((f, i) =>
      pythonBlocks(f).map((code, j) => {
        const file = join(dir, `snippet_${i}_${j}.py`);
        writeFileSync(file, code);
        return file;
      }),
    );
    expect(snippets.length).toBeGreaterThanOrEqual(2);
    try {
      // pyproject.toml names the files ([tool.mypy], [tool.pyright]); the snippets are added.
      const mypy = await run(
        PYTHON,
        ["-m", "mypy", "--strict", "memstream", "examples", "tests", ...snippets],
        {},
      );
      expect(mypy.code, mypy.output).toBe(0);
      expect(mypy.output).toMatch(/Success: no issues found/);
      const pyright = await run(
        resolve("node_modules/.bin/pyright"),
        ["memstream", "examples", "tests", ...snippets],
        {},
      );
      expect(pyright.code, pyright.output).toBe(0);
      expect(pyright.output).toMatch(/0 errors, 0 warnings/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
