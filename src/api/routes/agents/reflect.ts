import { createRoute, z } from "@hono/zod-openapi";
import { ReflectionFailed } from "../../../lib/errors";
import { reflectAgent } from "../../../memory/reflect/reflect";
import type { App, AppDeps } from "../../deps";
import { REFLECTION_EXAMPLE, RUN_EXAMPLE } from "../../examples";
import { AgentParam, apiErrors, errorResponse, json, MemorySchema, ReflectionRunSchema } from "../../schemas";

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/reflect",
  operationId: "reflectAgent",
  tags: ["reflection"],
  summary: "Reflect now: questions over recent memories, insights stored as `reflection` memories",
  description: [
    "Runs one reflection synchronously (a few LLM calls) and records it as a run.",
    "The insights are returned as memories of kind `reflection`, with `citations` naming the memories",
    "they rest on; their importance and embedding are computed later like any memory's.",
    "A failed LLM call fails the whole run (502, `details.runId`) and stores no insight.",
  ].join(" "),
  request: { params: AgentParam },
  responses: {
    200: json(z.object({ run: ReflectionRunSchema, insights: z.array(MemorySchema) }), "The finished run", {
      run: RUN_EXAMPLE,
      insights: [REFLECTION_EXAMPLE],
    }),
    ...apiErrors.agentAction,
    409: errorResponse("A reflection of this agent is already running (`details.runId`)"),
    429: errorResponse(
      "The agent's daily LLM budget is spent (`llm_budget_exhausted`; `details.resetsAt` says when it refills)",
    ),
    501: errorResponse("No LLM is configured, so reflection is off (`not_configured`)"),
    502: errorResponse("The LLM call failed; the run is recorded as failed (`reflection_failed`)"),
  },
});

export const registerReflect = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const result = await reflectAgent(deps, agentId, "manual");
    if (result.run.status === "failed") {
      throw new ReflectionFailed(`reflection failed: ${result.run.error ?? "unknown error"}`, {
        runId: result.run.id,
      });
    }
    return c.json(result, 200);
  });
