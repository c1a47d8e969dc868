import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { DockerfileParser } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { waitFor } from "../jobs/support";
import { TEST_REDIS_URL, uniq } from "../support/env";
import { ownDatabase } from "../support/own-database";

/**
 * The container, as far as a machine without a Docker engine can check it: the Dockerfile is
 * linted and its build context checked, and the image's own commands (its CMD, the compose
 * worker's command, its HEALTHCHECK) run here, outside Docker, against real Postgres and Redis.
 */

const dockerfileText = readFileSync("Dockerfile", "utf8");
const dockerfile = DockerfileParser.parse(dockerfileText);
const instructions = dockerfile.getInstructions();
const compose = parseYaml(readFileSync("docker-compose.yml", "utf8"), { merge: true }) as {
  services: Record<string, { build?: string; command?: string[]; environment?: Record<string, string> }>;
};
const finalStage = instructions.slice(instructions.map((i) => i.getKeyword()).lastIndexOf("FROM"));

/** The exec-form JSON array of a CMD-like instruction. */
function execForm(text: string): string[] {
  const json = text.slice(text.indexOf("["));
  const args = JSON.parse(json) as unknown;
  if (!Array.isArray(args)) throw new Error(`not exec form: ${text}`);
  return args as string[];
}

/** Patterns of .dockerignore as anchored regexes (the subset of syntax we use: names and globs). */
const ignored = readFileSync(".dockerignore", "utf8")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith("#"))
  .map((p) => new RegExp(`^${p.replace(/\./g, "\\.").replace(/\*/g, "[^/]*")}(/|$)`));

describe("Dockerfile", () => {
  it("has no syntax or flag errors", () => {
    expect(validate(dockerfileText)).toEqual([]);
  });

  it("pins every base image to a tag and installs from the lock", () => {
    const froms = instructions.filter((i) => i.getKeyword() === "FROM");
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const f of froms) {
      const image = f.getArguments()[0]?.getValue() ?? "";
      expect(image, f.getTextContent()).toMatch(/^[\w./-]+:[\w.-]+$/);
      expect(image).not.toMatch(/:latest$/);
    }
    const runs = instructions.filter((i) => i.getKeyword() === "RUN").map((i) => i.getTextContent());
    expect(runs.some((r) => /\bnpm ci\b/.test(r))).toBe(true);
    expect(runs.some((r) => /\bnpm (install|i)\b/.test(r))).toBe(false);
  });

  it("runs as a non-root user with a readiness healthcheck in the final stage", () => {
    const user = finalStage.filter((i) => i.getKeyword() === "USER").pop();
    expect(user?.getArguments()[0]?.getValue()).toMatch(/^(?!root$|0$)\w+/);
    const health = finalStage.find((i) => i.getKeyword() === "HEALTHCHECK")?.getTextContent() ?? "";
    expect(health).toContain("/readyz");
  });

  it("copies only what exists in the build context and is not ignored", () => {
    const copies = instructions.filter(
      (i) => i.getKeyword() === "COPY" && !i.getTextContent().includes("--from="),
    );
    expect(copies.length).toBeGreaterThan(0);
    for (const c of copies) {
      const args = c
        .getArguments()
        .map((a) => a.getValue())
        .filter((a) => !a.startsWith("--"));
      for (const src of args.slice(0, -1)) {
        const path = src.replace(/^\.\//, "");
        expect(existsSync(path), `${c.getTextContent()}: ${src} missing`).toBe(true);
        expect(
          ignored.some((re) => re.test(path)),
          `${src} is excluded by .dockerignore`,
        ).toBe(false);
      }
    }
  });
});

describe("docker-compose.yml", () => {
  it("runs the API and a worker from this image beside Postgres and Redis", () => {
    const { api, worker, postgres, redis } = compose.services;
    expect(postgres && redis).toBeTruthy();
    expect(api?.build).toBe(".");
    expect(worker?.build).toBe(".");
    expect(api?.environment?.MEMSTREAM_WORKERS).toBe("off");
    expect(api?.environment?.MEMSTREAM_API_KEYS).toMatch(/MEMSTREAM_API_KEYS/);
  });

  it("the citus profile is the topology scripts/citus-cluster.sh starts: a coordinator, two workers, the same extensions", () => {
    const services = compose.services as Record<
      string,
      { profiles?: string[]; build?: { dockerfile?: string }; command?: string[] }
    >;
    const nodes = ["citus-coordinator", "citus-worker-1", "citus-worker-2"];
    for (const n of nodes) {
      expect(services[n]?.profiles).toEqual(["citus"]);
      expect(services[n]?.build?.dockerfile).toBe("Dockerfile.citus");
    }
    const citusImage = readFileSync("Dockerfile.citus", "utf8");
    expect(citusImage).toMatch(/shared_preload_libraries=citus/);
    expect(citusImage).toMatch(/COPY scripts\/citus-node\.sql \/docker-entrypoint-initdb\.d\//);
    expect(readFileSync("scripts/citus-cluster.sh", "utf8")).toMatch(/-f scripts\/citus-node\.sql/);
    expect(readFileSync("scripts/citus-node.sql", "utf8")).toMatch(/citus;[\s\S]*vector;[\s\S]*btree_gin;/);
    const setup = (services["citus-setup"]?.command ?? []).join(" ");
    expect(setup).toMatch(/citus_set_coordinator_host\('citus-coordinator'/);
    for (const w of nodes.slice(1)) expect(setup).toContain(`citus_add_node('${w}', 5432)`);
  });
});

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
    s.on("error", fail);
  });
}

describe("the image's commands, outside Docker", () => {
  const children: ChildProcess[] = [];
  const exits = new Map<ChildProcess, Promise<number | null>>();
  let port = 0;
  let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
  let workerMetricsPort = 0;
  let env: NodeJS.ProcessEnv = {};

  /** Starts an image command (exec form) from the repository root, as the image's WORKDIR. */
  function run(args: string[], extra: Record<string, string> = {}) {
    const [cmd, ...rest] = args;
    const child = spawn(cmd as string, rest, {
      env: { ...env, ...extra },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    child.stderr?.on("data", (d) => {
      log += d;
    });
    children.push(child);
    exits.set(child, new Promise((ok) => child.on("exit", (code) => ok(code))));
    return { child, log: () => log };
  }

  beforeAll(async () => {
    // What the build stage runs after `npm ci`: the bundle the runtime stage copies.
    execFileSync("npm", ["run", "build"], { stdio: "ignore" });
    port = await freePort();
    workerMetricsPort = await freePort();
    // A database of its own: the worker's sweep is deployment-wide, and in the shared test database
    // it would first re-enqueue every other file's pending memories (1,918 in one loaded run).
    const own = await ownDatabase("image");
    database = own;
    // The image's ENV, with this machine's services in place of compose's.
    env = {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATABASE_URL: own.url,
      REDIS_URL: TEST_REDIS_URL,
      MEMSTREAM_QUEUE_PREFIX: uniq("img"),
      MEMSTREAM_API_KEYS: "image-test-key",
      MEMSTREAM_ADMIN_KEYS: "image-admin-key",
      MEMSTREAM_WORKER_METRICS_PORT: String(workerMetricsPort),
    };
  }, 120_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    await database?.drop();
  });

  it("the API (CMD) and the worker (compose command) store and enrich a memory, and stop cleanly", async () => {
    const cmd = execForm(finalStage.find((i) => i.getKeyword() === "CMD")?.getTextContent() ?? "");
    const workerCmd = compose.services.worker?.command ?? [];
    for (const c of [cmd, workerCmd])
      expect(existsSync(c[1] as string), `${c.join(" ")} not built`).toBe(true);

    const api = run(cmd, { MEMSTREAM_WORKERS: compose.services.api?.environment?.MEMSTREAM_WORKERS ?? "" });
    const worker = run(workerCmd);
    const base = `http://127.0.0.1:${port}`;
    const auth = { authorization: "Bearer image-test-key", "content-type": "application/json" };
    await waitFor(
      `the API on ${base}/readyz (log: ${api.log()})`,
      () =>
        fetch(`${base}/readyz`).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
    );

    // The image's HEALTHCHECK command, as Docker would run it inside the container.
    const health = execForm(finalStage.find((i) => i.getKeyword() === "HEALTHCHECK")?.getTextContent() ?? "");
    const check = run(health);
    expect(await exits.get(check.child)).toBe(0);

    const agent = uniq("image-agent");
    const created = await fetch(`${base}/v1/agents/${agent}/memories`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ description: "The nightly deploy to production failed on a migration" }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    // Documents are split in a worker thread, which the bundle starts from dist/ (its own entry point).
    const doc = await fetch(`${base}/v1/agents/${agent}/documents`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        source: "runbook.md",
        content: "# Runbook\n\nRoll back.\n\n## Deploy\n\nMerge.",
      }),
    });
    expect(doc.status).toBe(201);
    expect(await doc.json()).toMatchObject({ title: "Runbook", sections: 2 });

    // The API runs no workers (MEMSTREAM_WORKERS=off): only the worker process can fill these in.
    const ready = await waitFor(
      `memory ${id} enriched by the worker (worker log: ${worker.log()})`,
      async () => {
        const res = await fetch(`${base}/v1/agents/${agent}/memories/${id}`, { headers: auth });
        const m = (await res.json()) as {
          status: { importance: string; embedding: string };
          importance: number;
        };
        return m.status.importance === "ready" && m.status.embedding === "ready" ? m : null;
      },
      60_000,
    );
    expect(ready.importance).toBeGreaterThanOrEqual(1);

    // Both processes serve Prometheus metrics behind the admin key.
    const admin = { authorization: "Bearer image-admin-key" };
    const apiMetrics = await fetch(`${base}/metrics`, { headers: admin }).then((r) => r.text());
    expect(apiMetrics).toMatch(
      /memstream_http_request_duration_seconds_count\{method="POST",route="\/v1\/agents\/:agentId\/memories",status="201"\} 1/,
    );
    expect(apiMetrics).toContain("memstream_process_cpu_seconds_total");
    const workerMetrics = await fetch(`http://127.0.0.1:${workerMetricsPort}/metrics`, { headers: admin });
    expect(workerMetrics.status).toBe(200);
    expect(await workerMetrics.text()).toContain("memstream_process_resident_memory_bytes");
    expect((await fetch(`http://127.0.0.1:${workerMetricsPort}/metrics`)).status).toBe(401);

    api.child.kill("SIGTERM");
    worker.child.kill("SIGTERM");
    expect(await exits.get(api.child)).toBe(0);
    expect(await exits.get(worker.child)).toBe(0);
  }, 150_000);

  it("the migrate command applies the migrations and exits 0", async () => {
    const migrate = run(["node", "dist/cli/migrate.js"]);
    expect(await exits.get(migrate.child)).toBe(0);
  }, 60_000);
});
