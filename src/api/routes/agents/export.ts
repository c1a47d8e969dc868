import { createRoute, z } from "@hono/zod-openapi";
import { exportAgent } from "../../../memory/portable/export-stream";
import { FORMAT, FORMAT_VERSION } from "../../../memory/portable/format";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors } from "../../schemas";
import { streamBody } from "../../stream-body";

/** The media type of the portable stream (JSON Lines). */
export const NDJSON = "application/x-ndjson";

/** A whole (tiny) stream, the example of both routes. */
export const NDJSON_EXAMPLE = [
  {
    type: "header",
    format: FORMAT,
    version: FORMAT_VERSION,
    agentId: "npc-1",
    exportedAt: "2026-02-13T18:00:00.000Z",
    embeddingModels: [{ model: "text-embedding-3-small", dimensions: 1536, vectors: 1 }],
    memories: 1,
    settings: null,
  },
  {
    type: "memory",
    id: "mem_3n8x0q4w7f2k9d1c5b6a",
    kind: "observation",
    description: "alice opened pull request #42",
    createdAt: "2026-02-10T09:00:00.123456Z",
    lastAccessedAt: "2026-02-12T10:00:00.000000Z",
    insertedAt: "2026-02-10T09:00:01.000000Z",
    importance: 4,
    importanceSource: "caller",
    embeddingModel: "text-embedding-3-small",
    metadata: { source: "github" },
    citations: [],
    supersededBy: null,
    validUntil: null,
    promptVersion: null,
    vectors: { "text-embedding-3-small": [0.01, -0.02] },
  },
  { type: "end", memories: 1, documents: 0, reflectionRuns: 0 },
]
  .map((l) => JSON.stringify(l))
  .join("\n");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/export",
  operationId: "exportAgent",
  tags: ["agents"],
  summary: "Export the agent's stream as JSON Lines (streamed)",
  description: [
    "Streams the agent's stream as JSON Lines: a header (format version, embedding models, settings), then one",
    "line per memory (oldest first) with its vectors per model, importance, times (microseconds), metadata, kind,",
    "citations and supersession, an outcome's fields and a lesson's revisions; then the documents and the finished",
    "reflection runs; then an end line with the counts, so a cut-short file is told from a whole one. Read a page",
    "of memories at a time from one snapshot (on PostgreSQL). Not exported: the retrieval log and feedback, learned",
    "weights, erasure receipts, GitHub delivery state (docs/adr/0038). `POST /v1/agents/{agentId}/import` reads it back.",
  ].join(" "),
  request: { params: AgentParam },
  responses: {
    200: {
      description: "The stream, one JSON record per line",
      content: { [NDJSON]: { schema: z.string(), example: NDJSON_EXAMPLE } },
    },
    ...apiErrors.agentRead,
  },
});

export const registerExportAgent = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const body = await streamBody(
      (write) => exportAgent(deps, agentId, write),
      // Headers are sent: the client sees the stream end without its end line (import refuses it).
      (err) => deps.logger.error("export cut short", { agentId, error: err.stack ?? String(err) }),
    );
    return new Response(body, {
      status: 200,
      headers: {
        "content-type": NDJSON,
        "content-disposition": `attachment; filename="${agentId.replace(/[^A-Za-z0-9._-]/g, "_")}.jsonl"`,
      },
    }) as never;
  });
