import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { composeSystem, type System } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { silentLogger } from "../../src/lib/logger";
import { consolidateOutcomes } from "../../src/memory/lessons/consolidate";
import { SETUP_MS, uniq } from "../support/env";
import { stubEmbedding } from "../support/stub-vectors";
import { fixedClock, startTestSystem, type TestSystem, testSystemEnv } from "../support/system";
import { until } from "../support/until";

// Export → import across backends: PostgreSQL → embedded PGlite → PostgreSQL, with every kind of
// record, and the same retrieves and counts at each end (docs/adr/0038).
const s = uniq("port");
const agent = `port-${s}`;
const back = `back-${s}`;
const clock = fixedClock("2026-03-01T12:00:00.000Z");
const enc = encodeURIComponent;

let pg: TestSystem;
let lite: { system: System; app: ReturnType<typeof createApp> };

type App = { request: (path: string, init?: RequestInit) => Response | Promise<Response> };
const send = (app: App, method: string, path: string, body?: unknown) =>
  Promise.resolve(
    app.request(path, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
const exportOf = async (app: App, id: string) => {
  const res = await app.request(`/v1/agents/${enc(id)}/export`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/x-ndjson");
  return res.text();
};
const importInto = (app: App, id: string, body: string) =>
  Promise.resolve(
    app.request(`/v1/agents/${enc(id)}/import`, {
      method: "POST",
      headers: { "content-type": "application/x-ndjson" },
      body,
    }),
  );
const stats = async (app: App, id: string) => {
  const res = await send(app, "GET", `/v1/agents/${enc(id)}/stats`);
  const b = (await res.json()) as { total: number; byKind: Record<string, number> };
  return { total: b.total, byKind: b.byKind };
};
const QUERIES = ["the build failed on main", "deploy rollback", "flaky upload retries", "lunch"];
async function retrieves(app: App, id: string) {
  const out = [];
  for (const query of QUERIES) {
    for (const relevance of ["vector", "hybrid"]) {
      const res = await send(app, "POST", `/v1/agents/${enc(id)}/retrieve`, {
        query,
        k: 8,
        relevance,
        touch: false,
        mode: "exact",
      });
      expect(res.status).toBe(200);
      const b = (await res.json()) as { memories: { id: string; score: number }[] };
      out.push(b.memories.map((m) => ({ id: m.id, score: m.score })));
    }
  }
  return out;
}
/**
 * The same memories in the same order, with the same scores up to float4 rounding: pgvector
 * sums a cosine in a different order on PGlite's WebAssembly than natively (~3e-8 apart).
 */
function expectSameRanking(a: { id: string; score: number }[][], b: { id: string; score: number }[][]) {
  expect(a.map((r) => r.map((m) => m.id))).toEqual(b.map((r) => r.map((m) => m.id)));
  a.forEach((r, i) => {
    r.forEach((m, j) => {
      expect(Math.abs(m.score - (b[i]?.[j]?.score ?? Number.NaN))).toBeLessThan(1e-6);
    });
  });
}
/** An export without the header's `exportedAt` and agent id: what must survive a round trip. */
const comparable = (file: string) =>
  file
    .trimEnd()
    .split("\n")
    .map((l, i) => {
      if (i > 0) return l;
      const { exportedAt: _, agentId: __, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify(rest);
    });

beforeAll(async () => {
  pg = await startTestSystem({ clock, env: { LLM_MODEL: "stub-chat" } });
  const { DATABASE_URL: _, ...env } = testSystemEnv(pg.stub.url);
  const system = await composeSystem(loadConfig({ ...env, MEMSTREAM_DATA_DIR: "memory://" }), silentLogger, {
    clock,
  });
  lite = { system, app: createApp(system.app) };
  pg.system.jobs.startWorkers();

  // Every kind of record: observations, a plan, a superseded fact, a reflection citing two
  // observations, a document's sections, outcomes and the lesson drawn from them, settings and a
  // finished reflection run.
  const texts = [
    "The build failed on main after the upload change",
    "We had pizza for lunch",
    "Flaky upload retries in the api client",
    "Deploys go out from the main branch",
  ];
  const res = await pg.call("POST", `/v1/agents/${enc(agent)}/memories`, {
    memories: texts.map((description, i) => ({
      description,
      importance: i + 2,
      embedding: stubEmbedding(description),
      createdAt: `2026-02-0${i + 1}T10:00:00.123Z`,
      metadata: { n: i, source: "test" },
    })),
  });
  expect(res.status).toBe(201);
  const ids = ((await res.json()) as { memories: { id: string }[] }).memories.map((m) => m.id);
  const more = [
    { description: "Plan: rerun the build tonight", kind: "plan" },
    { description: "Deploys go out from the release branch", supersedes: [ids[3]] },
    { description: "Uploads break the build", kind: "reflection", citations: [ids[0], ids[2]] },
  ];
  for (const m of more) {
    expect((await pg.call("POST", `/v1/agents/${enc(agent)}/memories`, m)).status).toBe(201);
  }
  expect(
    (
      await pg.call("POST", `/v1/agents/${enc(agent)}/documents`, {
        source: "docs/deploy.md",
        content:
          "# Deploying\n\nMerge to main; CI builds the image.\n\n## Rollback\n\nRedeploy the previous tag.",
      })
    ).status,
  ).toBe(201);
  for (const success of [false, false, false]) {
    const r = await pg.call("POST", `/v1/agents/${enc(agent)}/outcomes`, {
      task: "upload the release artifacts",
      taskType: "upload",
      success,
      strategy: "single request",
      error: "timeout",
    });
    expect(r.status).toBe(201);
  }
  await consolidateOutcomes(
    { ...pg.system.services, taskEmbedder: pg.system.providers.embedder, chat: null },
    agent,
    "upload",
    { templateFallback: true },
  );
  expect(
    (await pg.call("PUT", `/v1/agents/${enc(agent)}/settings`, { reflectionThreshold: 40 })).status,
  ).toBe(200);
  await pg.system.database.db.execute(sql`INSERT INTO reflection_runs (id, agent_id, trigger, status, questions,
    insight_ids, started_at, finished_at) VALUES (${`run-${s}`}, ${agent}, 'manual', 'succeeded', '["why?"]'::jsonb,
    ARRAY[${ids[0]}]::text[], '2026-02-10T00:00:00Z', '2026-02-10T00:00:05Z')`);
  // Everything enriched: a pending memory would be embedded at retrieve time on one side only.
  await until(
    "the stream enriched",
    async () => {
      const r = (await (await pg.call("GET", `/v1/agents/${enc(agent)}/stats`)).json()) as {
        importance: { pending: number };
        embedding: { pending: number };
      };
      return r.importance.pending + r.embedding.pending === 0 ? true : null;
    },
    60_000,
  );
}, SETUP_MS);
afterAll(async () => {
  await lite?.system.close();
  await pg?.close();
});

describe("export and import", () => {
  let file: string;

  it("exports every kind, and PGlite imports it with the same counts, retrieves and export", async () => {
    file = await exportOf(pg.app, agent);
    const kinds = new Set(
      file
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; kind?: string })
        .map((r) => r.kind ?? r.type),
    );
    for (const k of [
      "header",
      "observation",
      "plan",
      "reflection",
      "document",
      "outcome",
      "lesson",
      "reflectionRun",
      "end",
    ])
      expect(kinds, k).toContain(k);

    const res = await importInto(lite.app, agent, file);
    expect(res.status).toBe(200);
    const report = (await res.json()) as { memories: { added: number; existing: number }; settings: string };
    const source = await stats(pg.app, agent);
    expect(report.memories).toEqual({ added: source.total, existing: 0 });
    expect(report.settings).toBe("added");
    expect(await stats(lite.app, agent)).toEqual(source);
    expectSameRanking(await retrieves(lite.app, agent), await retrieves(pg.app, agent));
    expect(comparable(await exportOf(lite.app, agent))).toEqual(comparable(file));
  });

  it("a re-import adds nothing", async () => {
    const before = await stats(lite.app, agent);
    const res = await importInto(lite.app, agent, file);
    expect(res.status).toBe(200);
    const report = (await res.json()) as {
      memories: { added: number; existing: number };
      documents: { added: number };
      settings: string;
    };
    expect(report.memories).toEqual({ added: 0, existing: before.total });
    expect(report.documents.added).toBe(0);
    expect(report.settings).toBe("kept");
    expect(await stats(lite.app, agent)).toEqual(before);
  });

  it("back from PGlite into PostgreSQL: the same again", async () => {
    const again = await exportOf(lite.app, agent);
    const res = await importInto(pg.app, back, again);
    expect(res.status).toBe(200);
    expect(await stats(pg.app, back)).toEqual(await stats(pg.app, agent));
    expect(await retrieves(pg.app, back)).toEqual(await retrieves(pg.app, agent));
    expect(comparable(await exportOf(pg.app, back))).toEqual(comparable(file));
  });

  it("a bad line answers 400 naming its line and field, and writes nothing", async () => {
    const lines = file.trimEnd().split("\n");
    const target = `bad-${s}`;
    const at = lines.findIndex((l) => l.includes('"kind":"plan"'));
    const bad = [...lines];
    bad[at] = bad[at]?.replace(/"importance":\d+/, '"importance":11') ?? "";
    const res = await importInto(lite.app, target, bad.join("\n"));
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: { message: string; details: { line: number; field: string } };
    };
    expect(body.error.details).toMatchObject({ line: at + 1, field: "memory.importance" });
    expect(body.error.message).toContain(`line ${at + 1}`);
    expect((await stats(lite.app, target)).total).toBe(0);

    // A reference to a memory in neither the file nor the agent: the citing line is named.
    const cited = (
      JSON.parse(lines.find((l) => l.includes('"kind":"reflection"')) ?? "{}") as { citations: string[] }
    ).citations[0];
    const dropped = lines.filter((l) => !l.includes(`"id":"${cited}"`));
    const fixedEnd = JSON.parse(dropped.at(-1) ?? "{}") as { memories: number };
    dropped[dropped.length - 1] = JSON.stringify({ ...fixedEnd, memories: fixedEnd.memories - 1 });
    const dangling = await importInto(lite.app, target, dropped.join("\n"));
    expect(dangling.status).toBe(400);
    const d = (await dangling.json()) as { error: { details: { line: number; field: string } } };
    expect(d.error.details.field).toMatch(/^memory\.citations\.\d$/);
    expect(dropped[d.error.details.line - 1]).toContain('"kind":"reflection"');
    expect((await stats(lite.app, target)).total).toBe(0);

    // Cut short: no end line.
    const cut = await importInto(lite.app, target, lines.slice(0, -2).join("\n"));
    expect(cut.status).toBe(400);
    expect(((await cut.json()) as { error: { details: { field: string } } }).error.details.field).toBe("end");
    // Not JSON Lines.
    const wrongType = await send(lite.app, "POST", `/v1/agents/${enc(target)}/import`, { a: 1 });
    expect(wrongType.status).toBe(415);
    expect((await stats(lite.app, target)).total).toBe(0);
  });
});
