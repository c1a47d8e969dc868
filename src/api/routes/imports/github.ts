import { createRoute, z } from "@hono/zod-openapi";
import { IMPORT_STATUSES } from "../../../db/schema";
import { getImport, startImport } from "../../../ingest/github/import/imports";
import { Text } from "../../../lib/storable";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, IsoTime, json } from "../../schemas";

const Counts = z.object({
  fetched: z.number().int(),
  stored: z.number().int(),
  duplicates: z.number().int(),
  ignored: z.number().int(),
  rateLimited: z.number().int(),
});
const GithubImport = z
  .object({
    id: z.string().openapi({ example: "imp_3n8x0q4w7f2k9d1c5b6a" }),
    repo: z.string(),
    agentIds: z.array(z.string()),
    since: z.string().nullable(),
    status: z.enum(IMPORT_STATUSES),
    phase: z.string().nullable().openapi({ description: "issues, pulls, releases or commits while running" }),
    counts: Counts,
    attempts: z.number().int(),
    error: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .openapi("GithubImport");

const IMPORT_EXAMPLE = {
  id: "imp_3n8x0q4w7f2k9d1c5b6a",
  repo: "acme/api",
  agentIds: ["github:acme/api"],
  since: "2025-01-01T00:00:00.000Z",
  status: "running",
  phase: "pulls",
  counts: { fetched: 240, stored: 231, duplicates: 6, ignored: 3, rateLimited: 0 },
  attempts: 1,
  error: null,
  createdAt: "2026-11-22T10:00:00.000Z",
  updatedAt: "2026-11-22T10:01:30.000Z",
  finishedAt: null,
};

const NewImport = z
  .object({
    repo: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "repo must be owner/name")
      .max(200)
      .openapi({ example: "acme/api" }),
    since: IsoTime.optional().openapi({ description: "Only what happened at or after this time" }),
  })
  .strict()
  .openapi("NewGithubImport", { example: { repo: "acme/api", since: "2025-01-01T00:00:00Z" } });

const start = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/imports/github",
  tags: ["imports"],
  operationId: "startGithubImport",
  summary: "Import a GitHub repository's history into the agent's stream (a background job)",
  description:
    "Reads the repository's issues and pull requests (with their reviews and comments), releases and default-branch commits through the GitHub REST API (`GITHUB_TOKEN`) and stores them as observations with the webhooks' describers and noise rules, each at its own time. An unfinished import of the same repository and `since` is resumed instead of started again; events already in the stream (an earlier import, a webhook) are not stored twice.",
  request: {
    params: AgentParam,
    body: { required: true, content: { "application/json": { schema: NewImport } } },
  },
  responses: {
    202: json(GithubImport, "Queued (or resumed); follow it with GET …/imports/github/{id}", IMPORT_EXAMPLE),
    ...apiErrors.agentWrite,
  },
});

const ImportParams = AgentParam.extend({
  id: Text({ min: 1, max: 64, name: "id" }).openapi({
    param: { name: "id", in: "path" },
    example: "imp_3n8x0q4w7f2k9d1c5b6a",
  }),
});

const get = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/imports/github/{id}",
  tags: ["imports"],
  operationId: "getGithubImport",
  summary: "A repository import's status, phase and counts",
  description:
    "Poll it after starting an import: `status` (queued, running, succeeded, failed), the phase and page it has reached, and the counts so far (fetched, stored, already there, ignored as noise, rate-limited waits). A failed import carries its reason; starting the same import again resumes it.",
  request: { params: ImportParams },
  responses: { 200: json(GithubImport, "The import", IMPORT_EXAMPLE), ...apiErrors.agentRead },
});

export const registerGithubImport = (app: App, deps: AppDeps) => {
  app.openapi(start, async (c) => {
    const { agentId } = c.req.valid("param");
    const body = c.req.valid("json");
    const opened = await startImport(deps, { repo: body.repo, agentId, since: body.since ?? null });
    return c.json(opened.import, 202);
  });
  app.openapi(get, async (c) => {
    const { agentId, id } = c.req.valid("param");
    return c.json(await getImport(deps, id, agentId), 200);
  });
};
