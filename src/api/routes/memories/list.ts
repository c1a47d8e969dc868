import { createRoute, z } from "@hono/zod-openapi";
import { Text } from "../../../lib/storable";
import { LIMITS } from "../../../memory/limits";
import { listMemories } from "../../../memory/list-memories";
import { MEMORY_KINDS, TIERS } from "../../../memory/types";
import type { App, AppDeps } from "../../deps";
import { MEMORY_EXAMPLE } from "../../examples";
import { AgentParam, apiErrors, IsoTime, json, MemorySchema, Metadata } from "../../schemas";

const Query = z.object({
  kind: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(",") : undefined))
    .pipe(z.array(z.enum(MEMORY_KINDS)).optional())
    .openapi({ description: "Comma-separated kinds", example: "observation,reflection" }),
  tiers: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(",") : undefined))
    .pipe(z.array(z.enum(TIERS)).min(1).optional())
    .openapi({
      description:
        "Comma-separated tiers: recent, summary, archive (what compaction moved behind summaries); default recent,summary",
      example: "recent,summary,archive",
    }),
  since: IsoTime.optional(),
  until: IsoTime.optional(),
  asOf: IsoTime.optional().openapi({
    description:
      "The stream as it stood at this time: memories created at or before it, each with supersededBy/validUntil only when its replacement existed by then and lastAccessedAt as last known before it (else its createdAt)",
    example: "2026-02-01T00:00:00Z",
  }),
  metadata: z
    .string()
    .optional()
    .transform((s, ctx) => {
      if (!s) return undefined;
      try {
        const v = JSON.parse(s);
        if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
      } catch {}
      ctx.addIssue({ code: "custom", message: "metadata must be a JSON object" });
      return z.NEVER;
    })
    .pipe(Metadata.optional())
    .openapi({
      description: "JSON object; memories whose metadata contains it",
      example: '{"event":"push"}',
    }),
  limit: z.coerce.number().int().min(1).max(LIMITS.maxPageSize).default(50),
  cursor: Text({ max: 500, name: "cursor" }).optional(),
});

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/memories",
  operationId: "listMemories",
  tags: ["memories"],
  summary: "List memories, newest first (cursor-paginated)",
  description:
    "Lists the agent's memories newest first, with optional filters (kind, time range, metadata). Pass the answer's `nextCursor` back as `cursor` for the next page; `null` means there is none. Nothing is ranked or touched: use `retrieve` to ask what matters. With `asOf`, the stream as it stood then (memories deleted since are gone for good).",
  request: { params: AgentParam, query: Query },
  responses: {
    200: json(z.object({ memories: z.array(MemorySchema), nextCursor: z.string().nullable() }), "A page", {
      memories: [MEMORY_EXAMPLE],
      nextCursor: "WyIyMDI2LTAyLTEwVDA5OjAwOjAwLjAwMFoiLCJtZW1fM244eDBxNHc3ZjJrOWQxYzViNmEiXQ",
    }),
    ...apiErrors.agentRead,
  },
});

export const registerListMemories = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const q = c.req.valid("query");
    const page = await listMemories(deps, agentId, { ...q, kinds: q.kind });
    return c.json(page, 200);
  });
