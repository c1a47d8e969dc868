import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Spawned, spawnEntry } from "../support/spawn";

// The README's "Outcomes and lessons" example, run exactly as written (its curl commands are read
// from the README) against the zero-config server: `src/server.ts` as `npm start` runs it, with no
// DATABASE_URL (PGlite in a data folder), no Redis (in-process workers) and no LLM (template wording).

type Curl = { method: string; path: string; body: unknown };

/** The curl commands of the README section, and the lesson description its comment shows. */
function readmeExample(): { curls: Curl[]; lesson: string } {
  const readme = readFileSync("README.md", "utf8");
  const section = readme.slice(readme.indexOf("## Outcomes and lessons"));
  const start = section.indexOf("```sh\n") + 6;
  const block = section.slice(start, section.indexOf("\n```", start));
  const lines = block.replace(/\\\n\s*/g, " ").split("\n");
  const curls = lines
    .filter((l) => l.startsWith("curl "))
    .map((l) => {
      const url = /'?localhost:8787(\/[^'\s]+)'?/.exec(l)?.[1];
      const data = /-d '([^']*)'/.exec(l)?.[1];
      if (!url) throw new Error(`no URL in ${l}`);
      return {
        method: /-X (\w+)/.exec(l)?.[1] ?? "GET",
        path: url,
        body: data === undefined ? undefined : JSON.parse(data),
      };
    });
  const shown = /"description":("(?:[^"\\]|\\.)*")/.exec(block)?.[1];
  if (!shown) throw new Error("the README shows no lesson description");
  return { curls, lesson: JSON.parse(shown) as string };
}

let server: Spawned;
let url: string;
const dataDir = mkdtempSync(join(tmpdir(), "memstream-readme-"));
beforeAll(async () => {
  server = spawnEntry("src/server.ts", {
    PATH: process.env.PATH ?? "",
    PORT: "0",
    MEMSTREAM_DATA_DIR: dataDir,
  });
  url = String((await server.waitForLog(/^listening$/, 120_000)).url);
}, 150_000);
afterAll(async () => {
  server?.child.kill("SIGTERM");
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

async function run(c: Curl): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${url}${c.path}`, {
    method: c.method,
    headers: c.body === undefined ? {} : { "content-type": "application/json" },
    body: c.body === undefined ? undefined : JSON.stringify(c.body),
  });
  return { status: res.status, json: await res.json() };
}

async function until<T>(what: string, check: () => Promise<T | null>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("README: outcomes and lessons, against the zero-config server", () => {
  it("fails twice the same way, succeeds with another strategy, and the next retrieve leads with the lesson", async () => {
    const { curls, lesson } = readmeExample();
    expect(curls.map((c) => `${c.method} ${c.path.split("?")[0]}`)).toEqual([
      "POST /v1/agents/deployer/outcomes",
      "POST /v1/agents/deployer/outcomes",
      "POST /v1/agents/deployer/outcomes",
      "GET /v1/agents/deployer/lessons",
      "POST /v1/agents/deployer/retrieve",
    ]);
    const [f1, f2, win, list, retrieve] = curls as [Curl, Curl, Curl, Curl, Curl];
    const ids: string[] = [];
    for (const c of [f1, f2, win]) {
      const r = await run(c);
      expect(r.status).toBe(201);
      ids.push((r.json as { id: string }).id);
    }
    // "a moment later": the job runs in the background.
    const [first] = await until("the lesson", async () => {
      const r = await run(list);
      const lessons = (r.json as { lessons: unknown[] }).lessons;
      return lessons.length > 0 ? lessons : null;
    });
    expect(first).toMatchObject({
      taskType: "deploy",
      polarity: "heuristic",
      description: lesson,
      confidence: 0.67,
      revision: 1,
      wording: "template:v1",
      importance: 8,
    });
    expect(new Set((first as { citations: string[] }).citations)).toEqual(new Set(ids));
    const lessonId = (first as { id: string }).id;
    // The lesson is embedded by the enrichment job like any memory; retrieve once it is.
    await until("the lesson embedded", async () => {
      const r = await run({
        method: "GET",
        path: `/v1/agents/deployer/memories/${lessonId}`,
        body: undefined,
      });
      return (r.json as { status: { embedding: string } }).status.embedding === "ready" ? true : null;
    });
    const r = await run(retrieve);
    expect(r.status).toBe(200);
    const ranked = (r.json as { memories: { id: string; kind: string }[] }).memories;
    expect(ranked[0]).toMatchObject({ id: lessonId, kind: "lesson" });
    expect(ranked.slice(1).map((m) => m.kind)).toEqual(["outcome", "outcome"]);
  }, 180_000);
});
