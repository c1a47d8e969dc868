import { createRoute, z } from "@hono/zod-openapi";
import { Text } from "../../../lib/storable";
import { LIMITS } from "../../../memory/limits";
import { recordOutcome } from "../../../memory/outcomes/record-outcome";
import type { App, AppDeps } from "../../deps";
import { OUTCOME_EXAMPLE } from "../../examples";
import { AgentParam, apiErrors, IsoTime, json, MemorySchema, Metadata } from "../../schemas";

export const TaskType = Text({ trim: true, min: 1, max: LIMITS.taskTypeChars, name: "taskType" }).openapi({
  example: "deploy",
  description: "Groups outcomes for consolidation; lessons are per task type",
});

const Body = z
  .object({
    task: Text({ trim: true, min: 1, max: LIMITS.outcomeTaskChars, name: "task" }).openapi({
      example: "Deploy the billing service to staging",
    }),
    taskType: TaskType.optional(),
    success: z.boolean(),
    strategy: Text({ trim: true, min: 1, max: LIMITS.outcomeFieldChars, name: "strategy" })
      .optional()
      .openapi({ example: "in-place restart" }),
    error: Text({ trim: true, min: 1, max: LIMITS.outcomeFieldChars, name: "error" })
      .optional()
      .openapi({ example: "port 8080 already in use" }),
    durationMs: z.number().int().min(0).max(2_147_483_647).optional(),
    metadata: Metadata.optional(),
    occurredAt: IsoTime.optional().openapi({
      description: "When it happened (the memory's createdAt); default now",
    }),
  })
  .strict()
  .openapi("NewOutcome");

export const OutcomeFieldsSchema = z
  .object({
    task: z.string(),
    taskType: z.string().nullable(),
    success: z.boolean(),
    strategy: z.string().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().nullable(),
  })
  .openapi("OutcomeFields");

const Outcome = MemorySchema.extend({ outcome: OutcomeFieldsSchema }).openapi("Outcome");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/outcomes",
  operationId: "recordOutcome",
  tags: ["lessons"],
  summary: "Record the outcome of a task (stored as an `outcome` memory)",
  description:
    "Stores an `outcome` memory described in words from the fields (retrieved like any memory; importance 6 for a failure, 4 for a success) with the structured fields beside it, and enqueues an `outcomes.consolidate` job: once `lessons.minOutcomes` similar outcomes of the task type accumulate, a `lesson` memory is written or revised.",
  request: {
    params: AgentParam,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: Body,
          example: {
            task: "Deploy the billing service to staging",
            taskType: "deploy",
            success: false,
            strategy: "in-place restart",
            error: "port 8080 already in use",
            durationMs: 41000,
          },
        },
      },
    },
  },
  responses: {
    201: json(Outcome, "Stored", OUTCOME_EXAMPLE),
    ...apiErrors.agentWrite,
  },
});

export const registerRecordOutcome = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await recordOutcome(deps.memory, agentId, c.req.valid("json")), 201);
  });
