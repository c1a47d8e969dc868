import { createRoute, z } from "@hono/zod-openapi";
import { recordFeedback } from "../../../memory/learning/feedback";
import { LIMITS } from "../../../memory/limits";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, json } from "../../schemas";

const Ids = z.array(z.string().min(1).max(64)).max(LIMITS.maxK);

const Body = z
  .object({
    retrievalId: z.string().min(1).max(64).openapi({ example: "ret_3n8x0qk2m7v5c9d1f4h6" }),
    used: Ids.openapi({
      description:
        "Ids of the memories the agent used (e.g. its answer cited them): returned by the retrieve, or ranked below its cut; may be empty",
      example: ["mem_5d1q0r2b7c9e3f4g6h8j"],
    }),
    unused: Ids.optional().openapi({
      description: "Ids of its memories the agent did not use; absent = every other memory it returned",
    }),
  })
  .strict()
  .openapi("Feedback");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/feedback",
  operationId: "giveFeedback",
  tags: ["retrieval"],
  summary: "Say which memories of a retrieve the agent used",
  description:
    "Records, for one retrieve of this agent (its `retrievalId`, while in the agent's retrieval log), which memories the agent used and which it did not. `used` may name a memory the retrieve returned or ranked below the cut (the pool it logged: found later, by another retrieve, say), which is what lets a fit lift what it missed. Another agent's retrievalId, or one past the log's bounds, is a 404; an id the retrieve did not rank, or one in both lists, a 400 naming it. Feedback given again replaces the earlier one. With learning on for the agent (`learnWeights`, GET /settings), every `MEMSTREAM_LEARN_MIN_EVENTS` retrieves with feedback and every 10 more start an `agent.learn` fit of its ranking weights (docs/api.md: Feedback and learned weights).",
  request: {
    params: AgentParam,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: Body,
          example: { retrievalId: "ret_3n8x0qk2m7v5c9d1f4h6", used: ["mem_5d1q0r2b7c9e3f4g6h8j"] },
        },
      },
    },
  },
  responses: {
    200: json(
      z
        .object({
          retrievalId: z.string(),
          used: z.number().int(),
          unused: z.number().int(),
          events: z
            .number()
            .int()
            .openapi({ description: "The agent's retrieves with feedback in its log, this one included" }),
        })
        .openapi("FeedbackRecorded"),
      "Recorded",
      { retrievalId: "ret_3n8x0qk2m7v5c9d1f4h6", used: 1, unused: 9, events: 12 },
    ),
    ...apiErrors.agentWrite,
  },
});

export const registerFeedback = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await recordFeedback(deps, agentId, c.req.valid("json")), 200);
  });
