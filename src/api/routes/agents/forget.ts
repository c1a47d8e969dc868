import { createRoute, z } from "@hono/zod-openapi";
import { forget } from "../../../memory/retention/forget";
import { FORGET_SAMPLE } from "../../../memory/retention/report";
import type { App, AppDeps } from "../../deps";
import { RetentionPolicySchema } from "../../retention-schemas";
import { AgentParam, apiErrors, json } from "../../schemas";

const Body = z
  .object({
    dryRun: z
      .boolean()
      .optional()
      .openapi({ description: "Report what would be deleted without deleting; default false" }),
    policy: RetentionPolicySchema.optional().openapi({
      description: "The policy to apply; absent = the agent's own (PUT /v1/agents/{agentId}/settings)",
    }),
  })
  .strict()
  .openapi("ForgetRequest");

const Report = z
  .object({
    dryRun: z.boolean(),
    policy: RetentionPolicySchema,
    policySource: z.enum(["request", "agent"]),
    count: z
      .number()
      .int()
      .openapi({ description: "Memories deleted (dry run: that a run now would delete)" }),
    byKind: z
      .record(z.string(), z.number().int())
      .openapi({ description: "count by kind; kinds with none left out" }),
    sample: z.array(z.string()).openapi({ description: `Up to ${FORGET_SAMPLE} of their ids, oldest first` }),
  })
  .openapi("ForgetReport");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/forget",
  operationId: "forgetMemories",
  tags: ["agents"],
  summary: "Apply a retention policy now, or preview it (dryRun)",
  description: [
    "Deletes the memories a retention policy forgets — the request's `policy`, else the agent's own — oldest first,",
    "in bounded batches, with their vectors; or with `dryRun` reports what it would delete (count, by kind, a sample",
    "of ids) without deleting. maxAgeDays: memories created longer ago go; maxMemories: the oldest deletable memories go",
    "until at most that many remain; keepImportanceAtLeast: memories at least that important (or not yet scored) stay.",
    "Never deleted: lessons, document sections (DELETE /documents owns them), and any memory a reflection or lesson",
    "cites. Deleted memories are counted in the agent's stats (`forgotten`); enrichment still in flight for them",
    "writes nothing. 400 when no policy is given and the agent has none.",
  ].join(" "),
  request: {
    params: AgentParam,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: Body,
          example: { dryRun: true, policy: { maxAgeDays: 30, keepImportanceAtLeast: 8 } },
        },
      },
    },
  },
  responses: {
    200: json(Report, "What was deleted, or with dryRun what would be", {
      dryRun: true,
      policy: { maxAgeDays: 30, keepImportanceAtLeast: 8 },
      policySource: "request",
      count: 412,
      byKind: { observation: 405, reflection: 7 },
      sample: ["mem_3n8x0q4w7f2k9d1c5b6a", "mem_8c2v5b1n7m4x0z9q3w6e"],
    }),
    ...apiErrors.agentWrite,
  },
});

export const registerForget = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await forget(deps, agentId, c.req.valid("json")), 200);
  });
