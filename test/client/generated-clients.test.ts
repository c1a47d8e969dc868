import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serverOpenApiDocument } from "../../scripts/client-types";

/**
 * Clients nobody here wrote: the server's /openapi.json through `openapi-typescript` (its
 * defaults, as `npx openapi-typescript openapi.json` runs it, used with openapi-fetch) and
 * `@hey-api/openapi-ts` (its defaults: types, SDK functions and its fetch client); a natural
 * remember / retrieve / feedback / list / stats / outcome then compiles with tsc under `strict`.
 * A request field with a server default that a generator makes required, or a response field the
 * server always fills that it leaves optional, fails the compile.
 */
const BIN = resolve("node_modules/.bin");
const GENERATE_MS = 120_000;
let dir: string;
let doc: Record<string, unknown>;

function run(cmd: string, args: string[]): { status: number | null; output: string } {
  const r = spawnSync(join(BIN, cmd), args, {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

// Each call reads the fields a caller would: retrievalId, id, score and description must be
// non-optional (`: string`), the requests name only what the caller means.
const OPENAPI_TYPESCRIPT_CALLS = `
import createClient from "openapi-fetch";
import type { paths } from "./ots";

const api = createClient<paths>({ baseUrl: "http://127.0.0.1:8787" });
const path = { agentId: "npc-42" };

export async function natural(): Promise<string[]> {
  await api.POST("/v1/agents/{agentId}/memories", {
    params: { path },
    body: { description: "Isabella is planning a Valentine's Day party at Hobbs Cafe" },
  });
  const { data } = await api.POST("/v1/agents/{agentId}/retrieve", {
    params: { path },
    body: { query: "What is Isabella up to?", k: 5 },
  });
  if (!data) return [];
  const retrievalId: string = data.retrievalId;
  const used: string[] = data.memories.map((m) => m.id);
  const scores: number[] = data.memories.map((m) => m.score);
  const texts: string[] = data.memories.map((m) => m.description);
  await api.POST("/v1/agents/{agentId}/feedback", { params: { path }, body: { retrievalId, used } });
  const page = await api.GET("/v1/agents/{agentId}/memories", { params: { path } });
  const next: string | null | undefined = page.data?.nextCursor;
  const stats = await api.GET("/v1/agents/{agentId}/stats", { params: { path } });
  await api.POST("/v1/agents/{agentId}/outcomes", {
    params: { path },
    body: { task: "fix the flaky test", success: true },
  });
  await api.POST("/v1/agents/{agentId}/retrieve", {
    params: { path },
    // @ts-expect-error k is a number: the generated types are not \`any\`
    body: { query: "x", k: "five" },
  });
  return [retrievalId, ...scores.map(String), ...texts, String(next), String(stats.data?.total)];
}
`;

const HEY_API_CALLS = `
import { createClient } from "./hey/client";
import { createMemories, getAgentStats, giveFeedback, listMemories, recordOutcome, retrieveMemories } from "./hey";

const client = createClient({ baseUrl: "http://127.0.0.1:8787" });
const path = { agentId: "npc-42" };

export async function natural(): Promise<string[]> {
  await createMemories({ client, path, body: { description: "Isabella is planning a Valentine's Day party at Hobbs Cafe" } });
  const { data } = await retrieveMemories({ client, path, body: { query: "What is Isabella up to?", k: 5 } });
  if (!data) return [];
  const retrievalId: string = data.retrievalId;
  const used: string[] = data.memories.map((m) => m.id);
  const scores: number[] = data.memories.map((m) => m.score);
  const texts: string[] = data.memories.map((m) => m.description);
  await giveFeedback({ client, path, body: { retrievalId, used } });
  const page = await listMemories({ client, path });
  const next: string | null | undefined = page.data?.nextCursor;
  const stats = await getAgentStats({ client, path });
  await recordOutcome({ client, path, body: { task: "fix the flaky test", success: true } });
  // @ts-expect-error k is a number: the generated types are not \`any\`
  await retrieveMemories({ client, path, body: { query: "x", k: "five" } });
  return [retrievalId, ...scores.map(String), ...texts, String(next), String(stats.data?.total)];
}
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "memstream-generated-clients-"));
  doc = await serverOpenApiDocument({ MEMSTREAM_API_KEYS: "k" });
  writeFileSync(join(dir, "openapi.json"), JSON.stringify(doc));
  writeFileSync(join(dir, "ots-calls.ts"), OPENAPI_TYPESCRIPT_CALLS);
  writeFileSync(join(dir, "hey-calls.ts"), HEY_API_CALLS);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tsc(file: string): { status: number | null; output: string } {
  writeFileSync(
    join(dir, `tsconfig.${file}.json`),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        lib: ["ES2023", "DOM", "DOM.Iterable"],
        types: [],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        // The repository's openapi-fetch (the temporary folder has no node_modules).
        paths: { "openapi-fetch": [resolve("node_modules/openapi-fetch")] },
      },
      files: [file],
    }),
  );
  return run("tsc", ["-p", `tsconfig.${file}.json`]);
}

describe("clients generated from /openapi.json with each tool's defaults", () => {
  it(
    "openapi-typescript: a natural retrieve and remember compile",
    () => {
      const gen = run("openapi-typescript", ["openapi.json", "-o", "ots.ts"]);
      expect(gen.status, gen.output).toBe(0);
      const compiled = tsc("ots-calls.ts");
      expect(compiled.status, compiled.output).toBe(0);
    },
    GENERATE_MS,
  );

  it(
    "@hey-api/openapi-ts: a natural retrieve and remember compile",
    () => {
      const gen = run("openapi-ts", ["-i", "openapi.json", "-o", "hey", "--no-log-file"]);
      expect(gen.status, gen.output).toBe(0);
      const compiled = tsc("hey-calls.ts");
      expect(compiled.status, compiled.output).toBe(0);
    },
    GENERATE_MS,
  );
});

type Schema = {
  properties?: Record<string, Schema>;
  required?: string[];
  default?: unknown;
  [k: string]: unknown;
};

/** Each object schema under `node` (through $ref, items, anyOf/oneOf/allOf, properties), with where it is. */
function objectSchemas(node: unknown, at: string, seen = new Set<string>()): [string, Schema][] {
  if (!node || typeof node !== "object") return [];
  const s = node as Schema;
  if (typeof s.$ref === "string") {
    if (seen.has(s.$ref)) return [];
    seen.add(s.$ref);
    const name = s.$ref.split("/").pop() as string;
    const schemas = (doc.components as { schemas: Record<string, Schema> }).schemas;
    return objectSchemas(schemas[name], name, seen);
  }
  const out: [string, Schema][] = s.properties ? [[at, s]] : [];
  for (const [k, v] of Object.entries(s.properties ?? {})) out.push(...objectSchemas(v, `${at}.${k}`, seen));
  for (const key of ["items", "additionalProperties"]) out.push(...objectSchemas(s[key], at, seen));
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    for (const v of (s[key] as unknown[] | undefined) ?? []) out.push(...objectSchemas(v, at, seen));
  }
  return out;
}

type Op = {
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};

describe("what the document says a caller must send and will get", () => {
  const operations = () =>
    Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
    );

  it("no request field carries a `default` (openapi-typescript would require it): defaults are said in descriptions", () => {
    const defaulted = operations().flatMap(({ name, op }) =>
      Object.values(op.requestBody?.content ?? {}).flatMap((media) =>
        objectSchemas(media.schema, name).flatMap(([at, s]) =>
          Object.entries(s.properties ?? {})
            .filter(([, p]) => p.default !== undefined)
            .map(([k]) => `${at}.${k}`),
        ),
      ),
    );
    expect(defaulted).toEqual([]);
  });

  it("every response field with a `default` is required (the server fills it): generators agree", () => {
    const optional = operations().flatMap(({ name, op }) =>
      Object.values(op.responses).flatMap((r) =>
        Object.values(r.content ?? {}).flatMap((media) =>
          objectSchemas(media.schema, name).flatMap(([at, s]) =>
            Object.entries(s.properties ?? {})
              .filter(([k, p]) => p.default !== undefined && !s.required?.includes(k))
              .map(([k]) => `${at}.${k}`),
          ),
        ),
      ),
    );
    expect(optional).toEqual([]);
  });
});
