import { createRoute } from "@hono/zod-openapi";
import { recordOutcome } from "../../../memory/outcomes/record-outcome";
import type { App, AppDeps } from "../../deps";
import { OUTCOME_EXAMPLE } from "../../examples";
import { NewOutcome, OutcomeFieldsSchema } from "../../outcome-schemas";
import { AgentParam, apiErrors, json, MemorySchema } from "../../schemas";

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
          schema: NewOutcome,
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
    return c.json(await recordOutcome(deps, agentId, c.req.valid("json")), 201);
  });
