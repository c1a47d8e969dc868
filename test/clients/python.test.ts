import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniq } from "../support/env";
import { listen } from "../support/listen";
import { startTestSystem, type TestSystem } from "../support/system";

// The Python client (clients/python, standard library only) run by Debian's pytest against the
// real server on a port, with a key scoped to this file's agents. scripts/install-pytest.sh (run
// by `npm run test:python`) installs pytest; without python3 or pytest this test fails, it never skips.
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
    expect(passed, output).toBeGreaterThanOrEqual(10);
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
});
