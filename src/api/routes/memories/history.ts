import { createRoute, z } from "@hono/zod-openapi";
import { Text } from "../../../lib/storable";
import { listMemoryHistory } from "../../../memory/history/list-history";
import { LIMITS } from "../../../memory/limits";
import type { App, AppDeps } from "../../deps";
import { MEMORY_EXAMPLE } from "../../examples";
import { apiErrors, json, MemoryParams } from "../../schemas";

const Revision = z
  .object({
    revision: z
      .number()
      .int()
      .openapi({ description: "1 for the first version replaced, then one more each" }),
    description: z.string(),
    importance: z.number().int().nullable().openapi({ description: "Null when it had none yet" }),
    metadata: z.record(z.string(), z.unknown()),
    replacedAt: z.string().openapi({ description: "When a PATCH replaced these values" }),
  })
  .openapi("MemoryRevision");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/memories/{id}/history",
  operationId: "getMemoryHistory",
  tags: ["memories"],
  summary: "A memory's earlier versions, newest first (cursor-paginated)",
  description:
    "Each `PATCH` that changed the memory's description, importance or metadata kept the values it replaced, as a revision: these, newest first. A PATCH that changed none of them kept nothing. Pass `nextCursor` back as `cursor` for the next page; `null` means there is none. Revisions are deleted with the memory.",
  request: {
    params: MemoryParams,
    query: z.object({
      limit: z.coerce.number().int().min(1).max(LIMITS.maxPageSize).default(50),
      cursor: Text({ max: 100, name: "cursor" }).optional(),
    }),
  },
  responses: {
    200: json(
      z.object({ memoryId: z.string(), revisions: z.array(Revision), nextCursor: z.string().nullable() }),
      "A page of revisions",
      {
        memoryId: MEMORY_EXAMPLE.id,
        revisions: [
          {
            revision: 1,
            description: MEMORY_EXAMPLE.description,
            importance: 6,
            metadata: MEMORY_EXAMPLE.metadata,
            replacedAt: "2026-02-12T10:00:00.000Z",
          },
        ],
        nextCursor: null,
      },
    ),
    ...apiErrors.agentRead,
  },
});

export const registerGetMemoryHistory = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId, id } = c.req.valid("param");
    return c.json(await listMemoryHistory(deps, agentId, id, c.req.valid("query")), 200);
  });
