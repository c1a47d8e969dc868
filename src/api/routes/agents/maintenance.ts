import { createRoute, z } from "@hono/zod-openapi";
import { maintainAgent } from "../../../memory/tiers/maintain";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, IsoTime, json } from "../../schemas";

const Body = z
  .object({
    dryRun: z.boolean().optional().openapi({ description: "Count what compaction would do; default false" }),
    before: IsoTime.optional().openapi({
      description:
        "Compact observations created before this time; absent = the agent's compaction.afterDays before now",
      example: "2026-01-01T00:00:00Z",
    }),
    groupMax: z.number().int().min(2).max(50).optional().openapi({
      description: "Most memories one summary stands for; absent = the agent's compaction.groupMax",
    }),
  })
  .strict()
  .openapi("MaintenanceRequest");

const Report = z
  .object({
    compaction: z.object({
      dryRun: z.boolean(),
      before: z.string(),
      summaries: z.number().int().openapi({ description: "Summaries written (dry run: that would be)" }),
      archived: z
        .number()
        .int()
        .openapi({ description: "Memories moved to the archive tier (dry run: that would be)" }),
      more: z
        .boolean()
        .openapi({ description: "Stopped at the request's bound with more to compact: ask again" }),
    }),
    tookMs: z.number().int(),
  })
  .openapi("MaintenanceReport");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/maintenance",
  operationId: "maintainAgent",
  tags: ["agents"],
  summary: "Compact older observations into summaries now, or count what would be (dryRun)",
  description: [
    "Compaction (what the agent.retain job runs for agents with compaction settings): the agent's observations created",
    "before `before` are grouped by day and session (metadata.session) into summary memories, at most groupMax each,",
    "worded from their most important and most central members; the members move to the archive tier with their vector",
    "and edit history. Archived memories are not ranked; a retrieve reaches them with `expand`, a list with",
    "tiers=archive, and deletion, expiry and erasure reach them as any memory. Other kinds are not compacted.",
    "400 without `before` when the agent has no compaction.afterDays.",
  ].join(" "),
  request: {
    params: AgentParam,
    body: {
      required: true,
      content: { "application/json": { schema: Body, example: { before: "2026-01-01T00:00:00Z" } } },
    },
  },
  responses: {
    200: json(Report, "What compaction did, or with dryRun would do", {
      compaction: {
        dryRun: false,
        before: "2026-01-01T00:00:00.000Z",
        summaries: 42,
        archived: 310,
        more: false,
      },
      tookMs: 412,
    }),
    ...apiErrors.agentWrite,
  },
});

export const registerMaintenance = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await maintainAgent(deps, agentId, c.req.valid("json")), 200);
  });
