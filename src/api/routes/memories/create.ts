import { createRoute, z } from "@hono/zod-openapi";
import { createMemories } from "../../../memory/create-memories";
import { LIMITS } from "../../../memory/limits";
import type { App, AppDeps } from "../../deps";
import { MEMORY_EXAMPLE } from "../../examples";
import { AgentParam, apiErrors, json, MemorySchema, NewMemory } from "../../schemas";

const Batch = z
  .object({
    memories: z
      .array(NewMemory)
      .min(1)
      .max(LIMITS.batchSize, `at most ${LIMITS.batchSize} memories per batch`),
  })
  .strict();

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/memories",
  operationId: "createMemories",
  tags: ["memories"],
  summary: "Store one memory or a batch",
  description:
    "Answers at once; importance and embedding not supplied are computed asynchronously (status `pending`). A batch is stored all or nothing.",
  request: {
    params: AgentParam,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.union([Batch, NewMemory]),
          example: {
            description: "alice opened pull request #42: retry flaky uploads",
            metadata: { source: "github", repository: "acme/api" },
          },
        },
      },
    },
  },
  responses: {
    201: json(
      z.union([MemorySchema, z.object({ memories: z.array(MemorySchema) })]),
      "Stored",
      MEMORY_EXAMPLE,
    ),
    ...apiErrors.agentWrite,
  },
});

export const registerCreateMemories = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const body = c.req.valid("json");
    if ("memories" in body) {
      const memories = await createMemories(deps.memory, agentId, body.memories);
      return c.json({ memories }, 201);
    }
    const [memory] = await createMemories(deps.memory, agentId, [body]);
    return c.json(memory, 201);
  });
