import { createRoute, z } from "@hono/zod-openapi";
import { UnsupportedMediaType } from "../../../lib/errors";
import { PORTABLE_LIMITS } from "../../../memory/portable/format";
import { importAgent } from "../../../memory/portable/import-stream";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, errorResponse, json } from "../../schemas";
import { NDJSON, NDJSON_EXAMPLE } from "./export";

/** Media types read as JSON Lines. */
const LINES = new Set([NDJSON, "application/jsonl", "application/x-jsonlines"]);

const Count = z.object({ added: z.number().int(), existing: z.number().int() });
const Report = z
  .object({
    lines: z.number().int(),
    memories: Count,
    vectors: z.number().int().openapi({ description: "Vectors written (of the memories added)" }),
    documents: Count,
    reflectionRuns: Count,
    settings: z.enum(["added", "kept", "none"]).openapi({
      description:
        "`added`: the file's settings were written; `kept`: the agent had its own; `none`: the file had none",
    }),
  })
  .openapi("ImportReport");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/import",
  operationId: "importAgent",
  tags: ["agents"],
  summary: "Import a stream written by export (JSON Lines, streamed, all or nothing)",
  description: [
    "Reads a file written by `GET /v1/agents/{agentId}/export` (of this agent or another) line by line and writes it",
    "in batches inside ONE transaction: a bad line (JSON, a field, a reference to a memory neither in the file nor",
    "the agent, a missing end line) answers 400 naming the line and the field, and nothing of the file stays. Ids are",
    "kept, so citations, supersession and lesson revisions mean what they meant; a memory, document or run whose id",
    "the agent already has is left as it is (`existing`), so importing the same file again adds nothing. Settings are",
    "written only when the agent has none. Limits: " +
      `${PORTABLE_LIMITS.lineBytes} bytes a line, ${PORTABLE_LIMITS.lines} lines, ${PORTABLE_LIMITS.importBytes} bytes`,
    "a body (MEMSTREAM_MAX_BODY_BYTES does not apply: the body is read as it arrives).",
  ].join(" "),
  request: {
    params: AgentParam,
    body: {
      required: true,
      content: {
        [NDJSON]: {
          schema: z.string().openapi({ description: "JSON Lines, as export writes them" }),
          example: NDJSON_EXAMPLE,
        },
      },
    },
  },
  responses: {
    200: json(Report, "Imported (or, for a re-run, found already there)", {
      lines: 3,
      memories: { added: 1, existing: 0 },
      vectors: 1,
      documents: { added: 0, existing: 0 },
      reflectionRuns: { added: 0, existing: 0 },
      settings: "none",
    }),
    ...apiErrors.agentRead,
    413: errorResponse(`Body over ${PORTABLE_LIMITS.importBytes} bytes (\`payload_too_large\`)`),
    415: errorResponse(`Content-Type is not ${NDJSON} (\`unsupported_media_type\`)`),
    409: errorResponse("The agent was erased while the import ran; nothing was written (`conflict`)"),
  },
});

export const registerImportAgent = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (!LINES.has(type)) {
      throw new UnsupportedMediaType(
        `the body must be JSON Lines: send Content-Type: ${NDJSON} (got ${type || "none"})`,
      );
    }
    const body = c.req.raw.body ?? new ReadableStream<Uint8Array>({ start: (s) => s.close() });
    return c.json(await importAgent(deps, agentId, body), 200);
  });
