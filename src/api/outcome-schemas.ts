import { z } from "@hono/zod-openapi";
import { Text } from "../lib/storable";
import { LIMITS } from "../memory/limits";
import { IsoTime, Metadata } from "./schemas";

export const TaskType = Text({ trim: true, min: 1, max: LIMITS.taskTypeChars, name: "taskType" }).openapi({
  example: "deploy",
  description: "Groups outcomes for consolidation; lessons are per task type",
});

/** The body of `POST /outcomes` (and the `record_outcome` MCP tool's fields). */
export const NewOutcome = z
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
