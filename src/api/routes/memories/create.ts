import { createRoute, z } from "@hono/zod-openapi";
import { createMemories } from "../../../memory/create-memories";
import { acceptJudged } from "../../body-work";
import type { App, AppDeps } from "../../deps";
import { MEMORY_EXAMPLE } from "../../examples";
import { MemoriesBody } from "../../memories-body";
import { memoriesJsonBody } from "../../memories-json-body";
import { AgentParam, apiErrors, json, MemorySchema } from "../../schemas";

/** RFC 7240: `Prefer: return=minimal` asks for the new ids only. */
const PreferHeader = z.object({
  prefer: z
    .string()
    .optional()
    .openapi({
      param: { name: "prefer", in: "header" },
      example: "return=minimal",
      description:
        "`return=minimal` (RFC 7240): answer only the new ids in input order (`{ids}` for a batch, `{id}` for one memory) instead of every stored memory; the answer then carries `Preference-Applied: return=minimal`. Saves serializing and reading back up to 1,000 memories per batch.",
    }),
});

const Ids = z.object({ ids: z.array(z.string()) }).openapi("CreatedIds");
const Id = z.object({ id: z.string() }).openapi("CreatedId");

/** True when a Prefer header holds `return=minimal` (among other preferences, any case, quoted or not). */
export function prefersMinimal(header: string | undefined): boolean {
  if (!header) return false;
  return header
    .split(",")
    .some((p) => (p.split(";")[0] ?? "").replace(/[\s"]/g, "").toLowerCase() === "return=minimal");
}

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
    headers: PreferHeader,
    body: {
      required: true,
      content: {
        "application/json": {
          // A large body's verdict comes from the body thread (body-work.ts), taken as it is.
          schema: acceptJudged(MemoriesBody),
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
      z.union([MemorySchema, z.object({ memories: z.array(MemorySchema) }), Ids, Id]),
      "Stored: the memory, or `{memories}` for a batch; with `Prefer: return=minimal`, `{id}` or `{ids}`",
      MEMORY_EXAMPLE,
    ),
    ...apiErrors.agentWrite,
  },
});

export const registerCreateMemories = (app: App, deps: AppDeps) =>
  app.openapi({ ...route, middleware: [memoriesJsonBody(deps.bodies)] as const }, async (c) => {
    const { agentId } = c.req.valid("param");
    const body = c.req.valid("json");
    const minimal = prefersMinimal(c.req.valid("header").prefer);
    if (minimal) c.header("Preference-Applied", "return=minimal");
    if ("memories" in body) {
      const memories = await createMemories(deps, agentId, body.memories);
      return minimal ? c.json({ ids: memories.map((m) => m.id) }, 201) : c.json({ memories }, 201);
    }
    const [memory] = await createMemories(deps, agentId, [body]);
    if (!memory) throw new Error("createMemories stored no memory");
    return minimal ? c.json({ id: memory.id }, 201) : c.json(memory, 201);
  });
