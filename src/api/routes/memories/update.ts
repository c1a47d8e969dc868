import { createRoute, z } from "@hono/zod-openapi";
import { updateMemory } from "../../../memory/update-memory";
import type { App, AppDeps } from "../../deps";
import { MEMORY_EXAMPLE } from "../../examples";
import {
  apiErrors,
  Description,
  Importance,
  IsoTime,
  json,
  MemoryParams,
  MemorySchema,
  Metadata,
  ModelId,
  Vector,
  WritableKind,
} from "../../schemas";

const Patch = z
  .object({
    description: Description.optional(),
    kind: WritableKind.optional(),
    importance: Importance.optional(),
    embedding: Vector.optional(),
    embeddingModel: ModelId.optional(),
    metadata: Metadata.optional().openapi({ description: "Replaces the metadata object as a whole" }),
    expiresAt: IsoTime.nullable()
      .optional()
      .openapi({ description: "When the memory stops existing (a past time: at once); null = never" }),
  })
  .strict()
  .openapi("MemoryPatch");

const route = createRoute({
  method: "patch",
  path: "/v1/agents/{agentId}/memories/{id}",
  operationId: "updateMemory",
  tags: ["memories"],
  summary: "Update a memory",
  description:
    "A changed description makes importance and embedding pending again (unless supplied in the same patch).",
  request: {
    params: MemoryParams,
    body: {
      required: true,
      content: {
        "application/json": { schema: Patch, example: { importance: 8, metadata: { pinned: true } } },
      },
    },
  },
  responses: {
    200: json(MemorySchema, "The updated memory", {
      ...MEMORY_EXAMPLE,
      importance: 8,
      metadata: { pinned: true },
    }),
    ...apiErrors.agentWrite,
  },
});

export const registerUpdateMemory = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId, id } = c.req.valid("param");
    return c.json(await updateMemory(deps, agentId, id, c.req.valid("json")), 200);
  });
