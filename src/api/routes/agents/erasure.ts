import { createRoute, z } from "@hono/zod-openapi";
import { Text } from "../../../lib/storable";
import { getErasureReceipt } from "../../../memory/erasure/receipt";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, json } from "../../schemas";

const Counts = z.record(z.string(), z.number().int());

export const ErasureReceiptSchema = z
  .object({
    id: z.string(),
    agentId: z.string(),
    epoch: z.number().int().openapi({ description: "The agent's erase count after this one" }),
    erasedAt: z.string(),
    rows: Counts.openapi({ description: "Rows removed per table, cascades included" }),
    memoriesByKind: Counts.openapi({ description: "Memories removed per kind" }),
    cancelled: Counts.openapi({
      description:
        "Pending work that writes nothing now: `enrichment` (memories whose importance or vector was not done), `reflectionRuns` (runs still running)",
    }),
  })
  .openapi("ErasureReceipt");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/erasures/{id}",
  operationId: "getErasureReceipt",
  tags: ["agents"],
  summary: "The receipt of an agent's erasure (counts, no content)",
  description:
    "What `DELETE /v1/agents/{agentId}` removed, by the `erasureId` it answered (as `id`): when, the epoch it began, rows removed per table and the pending work it cancelled. Counts only, never content; kept after the data is gone (docs/adr/0034).",
  request: {
    params: AgentParam.extend({
      id: Text({ min: 1, max: 64, name: "id" }).openapi({
        param: { name: "id", in: "path" },
        example: "era_3n8x0q4w7f2k9d1c5b6a",
      }),
    }),
  },
  responses: {
    200: json(ErasureReceiptSchema, "The receipt", {
      id: "era_3n8x0q4w7f2k9d1c5b6a",
      agentId: "npc-42",
      epoch: 1,
      erasedAt: "2026-02-14T09:00:00.000Z",
      rows: {
        memories: 120,
        memory_embeddings: 118,
        outcomes: 0,
        lesson_revisions: 0,
        memory_revisions: 3,
        reflection_runs: 2,
        agent_settings: 1,
        documents: 0,
        retrieval_log: 14,
      },
      memoriesByKind: { observation: 112, reflection: 8 },
      cancelled: { enrichment: 2, reflectionRuns: 0 },
    }),
    ...apiErrors.agentRead,
  },
});

export const registerGetErasure = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId, id } = c.req.valid("param");
    return c.json(await getErasureReceipt(deps, agentId, id), 200);
  });
