import { createRoute, z } from "@hono/zod-openapi";
import { Text } from "../../../lib/storable";
import { DELETE_LIMITS, deleteMemories } from "../../../memory/deletion/delete-memories";
import { LIMITS } from "../../../memory/limits";
import type { App, AppDeps } from "../../deps";
import {
  AgentParam,
  apiErrors,
  DerivedDeleted,
  errorResponse,
  IsoTime,
  json,
  Kind,
  MemoryId,
  Metadata,
} from "../../schemas";

const Filter = z
  .object({
    kinds: z.array(Kind).min(1).optional(),
    metadata: Metadata.optional().openapi({ description: "Memories whose metadata contains this object" }),
    since: IsoTime.optional().openapi({ description: "createdAt at or after" }),
    until: IsoTime.optional().openapi({ description: "createdAt at or before" }),
    source: Text({ min: 1, max: LIMITS.sourceChars, name: "source" })
      .optional()
      .openapi({ description: "metadata.source equals it (a document's path, `github`, …)" }),
  })
  .strict()
  .openapi("DeleteFilter");

const Body = z
  .object({
    ids: z
      .array(MemoryId)
      .min(1)
      .max(DELETE_LIMITS.ids, `at most ${DELETE_LIMITS.ids} ids per request`)
      .optional(),
    filter: Filter.optional(),
    dryRun: z
      .boolean()
      .optional()
      .openapi({ description: "Count what matches, delete nothing; default false" }),
  })
  .strict()
  .refine((b) => (b.ids === undefined) !== (b.filter === undefined), {
    message: "give either ids or filter",
    path: ["ids"],
  })
  .openapi("DeleteMemoriesRequest");

const Report = z
  .object({
    dryRun: z.boolean(),
    count: z
      .number()
      .int()
      .openapi({ description: "Memories deleted, derived ones included (dry run: that match)" }),
    byKind: z
      .record(z.string(), z.number().int())
      .openapi({ description: "count by kind; kinds with none left out" }),
    derived: DerivedDeleted,
    notFound: z
      .array(z.string())
      .optional()
      .openapi({ description: "Asked ids the agent does not have (ids only)" }),
    more: z.boolean().openapi({
      description: `The filter matched more than one request deletes (${DELETE_LIMITS.perRequest}): send it again`,
    }),
  })
  .openapi("DeleteMemoriesReport");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/memories/delete",
  operationId: "deleteMemories",
  tags: ["memories"],
  summary: "Delete memories by ids or by filter, or count them (dryRun)",
  description: [
    `Deletes up to ${DELETE_LIMITS.ids} memories by id, or every memory matching a filter (kinds, metadata`,
    "containment, a createdAt range, metadata.source), oldest first, in transactions of",
    `${DELETE_LIMITS.batch}, at most ${DELETE_LIMITS.perRequest} per request (\`more\`: send it again). Each goes the`,
    "way `DELETE /memories/{id}` goes: its vectors, and the reflections and lessons derived from it, in the same",
    "transaction; the memories it had superseded are current again; queued enrichment writes nothing. A filter must",
    "name a condition (to delete everything, erase the agent). `dryRun` counts what matches and deletes nothing.",
  ].join(" "),
  request: {
    params: AgentParam,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: Body,
          example: { filter: { kinds: ["observation"], metadata: { session: "s-17" } }, dryRun: true },
        },
      },
    },
  },
  responses: {
    200: json(Report, "What was deleted, or with dryRun what matches", {
      dryRun: false,
      count: 13,
      byKind: { observation: 12, reflection: 1 },
      derived: { reflection: 1 },
      more: false,
    }),
    ...apiErrors.agentWrite,
    409: errorResponse("The agent was erased while the delete ran (`conflict`)"),
  },
});

export const registerDeleteMemories = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const { dryRun, ids, filter } = c.req.valid("json");
    const selection = ids ? { ids } : { filter: { ...filter, kinds: filter?.kinds } };
    return c.json(await deleteMemories(deps, agentId, selection, dryRun ?? false), 200);
  });
