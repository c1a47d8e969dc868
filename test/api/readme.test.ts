import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Curl, readmeCurls, readmeSection } from "../support/readme-curls";
import { type Spawned, spawnEntry } from "../support/spawn";
import { until } from "../support/until";

// The README's curl commands, read from the README and run as written against the zero-config
// server: `src/server.ts` as `npm start` runs it, with no DATABASE_URL (PGlite in a data folder),
// no Redis (in-process workers) and no LLM (offline embedder, template wording).

const LESSONS = "Outcomes and lessons";

/** The first JSON string the README shows after `before` in `heading`'s section. */
function shownString(heading: string, before: RegExp): string {
  const m = new RegExp(`${before.source}("(?:[^"\\\\]|\\\\.)*")`).exec(readmeSection(heading));
  if (!m) throw new Error(`the README's "${heading}" shows no ${before}`);
  return JSON.parse(m[1] as string) as string;
}

type Retrieved = { retrievalId: string; memories: { id: string }[] };
type Erased = { erasureId: string };

/**
 * The README's placeholders filled from the retrieve answered last, as a reader would: `ret_…` is its
 * retrievalId, `mem_a…` its first memory's id, `mem_b…` the second's.
 */
function filled(body: unknown, last: Retrieved | null): unknown {
  if (typeof body === "string") {
    if (body === "ret_…") return last?.retrievalId ?? body;
    const m = /^mem_([a-z])…$/.exec(body);
    const id = m && last?.memories[(m[1] as string).charCodeAt(0) - 97]?.id;
    if (m && !id) throw new Error(`the README's ${body} has no memory in the retrieve before it`);
    return id ?? body;
  }
  if (Array.isArray(body)) return body.map((v) => filled(v, last));
  if (body && typeof body === "object") {
    return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, filled(v, last)]));
  }
  return body;
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

async function run(c: Pick<Curl, "method" | "path" | "body"> & { headers?: Curl["headers"] }) {
  const res = await fetch(`${url}${c.path}`, {
    method: c.method,
    headers: c.headers ?? (c.body === undefined ? {} : { "content-type": "application/json" }),
    body: c.body === undefined ? undefined : JSON.stringify(c.body),
  });
  return { status: res.status, json: (await res.json()) as unknown };
}

describe("README: every other example, in order, against the zero-config server", () => {
  it("answers each curl command with success and JSON, and as the README says where it says", async () => {
    const curls = readmeCurls().filter((c) => c.section !== LESSONS);
    expect(curls.length).toBeGreaterThanOrEqual(10);
    const answers: { c: Curl; status: number; json: unknown }[] = [];
    let retrieved: Retrieved | null = null;
    let erased: Erased | null = null;
    for (const c of curls) {
      // Placeholders in the path as well: `mem_a…` from the retrieve before, `era_…` from the erase before.
      const path = c.path
        .replace(/mem_[a-z]…/g, (p) => String(filled(p, retrieved)))
        .replace("era_…", erased?.erasureId ?? "era_…");
      const r = await run({ ...c, path, body: filled(c.body, retrieved) });
      if (c.path.endsWith("/retrieve")) retrieved = r.json as Retrieved;
      if (c.method === "DELETE" && /^\/v1\/agents\/[^/]+$/.test(c.path)) erased = r.json as Erased;
      answers.push({ c, ...r });
      // The answer's body rides along when it failed, so the report says why.
      const failed = r.status >= 300 ? r.json : undefined;
      expect({ command: `${c.method} ${c.path}`, status: r.status, failed }).toEqual({
        command: `${c.method} ${c.path}`,
        status: expect.toSatisfy((s: number) => s >= 200 && s < 300),
        failed: undefined,
      });
    }
    const example = (section: string, path: RegExp) => {
      const found = answers.find((a) => a.c.section === section && path.test(a.c.path));
      if (!found) throw new Error(`no ${path} example in "${section}"`);
      return found;
    };
    const answer = (section: string, path: RegExp) => example(section, path).json as Record<string, unknown>;
    // "Run it": the one memory stored comes back.
    const quick = answer("Run it", /\/retrieve$/).memories as { description: string }[];
    const stored = example("Run it", /\/memories$/).c.body as { description: string };
    expect(quick[0]?.description).toBe(stored.description);
    // Feedback (a ```bash block): the retrieve just before it, its first memory used.
    expect(answer("Feedback and learned weights", /\/feedback$/)).toMatchObject({ used: 1 });
    // Documents: the section the README names comes first.
    const docs = answer("Documents", /\/retrieve$/).memories as { description: string }[];
    expect(docs[0]?.description).toBe(shownString("Documents", /# → /));
    // Freshness: the retrieve that waits says how long, and that nothing written before it is pending.
    const waited = answer("Freshness: what is not searchable yet", /\/retrieve$/).freshness;
    expect(waited).toMatchObject({ pending: 0, waited: { complete: true } });
    // Recall as of a time: only what was written by then.
    const asOf = answer("Recall as of a time: `asOf`", /\/retrieve$/).memories as { description: string }[];
    expect(asOf.map((m) => m.description)).toEqual([shownString("Recall as of a time: `asOf`", /# → /)]);
    // Deletion reaches what was derived: the reflection citing the deleted memory is counted; the receipt counts.
    const DERIVED = "Deletion reaches what was derived";
    expect(answer(DERIVED, /\/memories\/mem_/)).toMatchObject({
      kind: "observation",
      derived: { reflection: 1 },
    });
    expect(answer(DERIVED, /\/erasures\//)).toMatchObject({ epoch: 1, rows: { memories: 1 } });
    // History: the PATCH kept what the memory said before.
    expect(answer("History of changes", /\/history$/)).toMatchObject({
      revisions: [{ revision: 1, description: "Klaus lives in Paris", importance: 4 }],
      nextCursor: null,
    });
    // Tiers: the old day compacted into one summary of two, which a retrieve expands back.
    const TIERS = "Memory tiers: older detail compacted into summaries";
    expect(answer(TIERS, /\/maintenance$/)).toMatchObject({ compaction: { summaries: 1, archived: 2 } });
    const expanding = answers.find((a) => a.c.section === TIERS && (a.c.body as { expand?: number })?.expand);
    if (!expanding) throw new Error(`no retrieve with expand in "${TIERS}"`);
    const tiered = (expanding.json as { memories: { kind: string; expanded?: { description: string }[] }[] })
      .memories;
    const summary = tiered.find((m) => m.kind === "summary");
    expect(summary?.expanded?.map((m) => m.description).sort()).toEqual([
      "Planted tomatoes by the north fence",
      "Watered the tomatoes and the basil",
    ]);
    // Retention: the dry run reports the agent's policy, as set just before.
    const settings = curls.find((c) => c.path.endsWith("/settings"))?.body as { retention: unknown };
    expect(answer("Retention: forgetting on purpose", /\/forget$/)).toMatchObject({
      dryRun: true,
      policy: settings.retention,
      policySource: "agent",
    });
  }, 180_000);
});

describe("README: outcomes and lessons, against the zero-config server", () => {
  it("fails twice the same way, succeeds with another strategy, and the next retrieve leads with the lesson", async () => {
    const curls = readmeCurls().filter((c) => c.section === LESSONS);
    const lesson = shownString(LESSONS, /"description":/);
    expect(curls.map((c) => `${c.method} ${c.path.split("?")[0]}`)).toEqual([
      "POST /v1/agents/deployer/outcomes",
      "POST /v1/agents/deployer/outcomes",
      "POST /v1/agents/deployer/outcomes",
      "GET /v1/agents/deployer/lessons",
      "POST /v1/agents/deployer/retrieve",
      "POST /v1/agents/deployer/retrieve",
    ]);
    const [f1, f2, win, list, retrieve, block] = curls as [Curl, Curl, Curl, Curl, Curl, Curl];
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
    // The prompt block: the lesson under its header first, then the outcomes.
    const b = await run(block);
    expect(b.status).toBe(200);
    const text = (b.json as { context: { text: string } }).context.text;
    const [lessons, outcomes] = text.split("\n\n");
    expect(lessons?.split("\n")[0]).toBe("Lessons (most relevant first):");
    expect(lessons).toContain(`(lesson) ${lesson}`);
    expect(outcomes?.split("\n")[0]).toBe("Outcomes (most relevant first):");
    expect(outcomes?.split("\n").slice(1)).toHaveLength(3);
  }, 180_000);
});
