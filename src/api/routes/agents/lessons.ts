import { createRoute, z } from "@hono/zod-openapi";
import { listLessons, MAX_LESSONS } from "../../../memory/lessons/list-lessons";
import { LESSON_POLARITIES } from "../../../memory/lessons/types";
import type { App, AppDeps } from "../../deps";
import { LESSON_EXAMPLE } from "../../examples";
import { TaskType } from "../../outcome-schemas";
import { AgentParam, apiErrors, json } from "../../schemas";

const StrategyStats = z
  .object({
    strategy: z.string().nullable(),
    attempts: z.number(),
    successes: z.number(),
    failures: z.number(),
    errors: z.array(z.object({ error: z.string(), count: z.number() })),
  })
  .openapi("StrategyStats");

const Lesson = z
  .object({
    id: z.string().openapi({ description: "The lesson's memory id (stable across revisions)" }),
    agentId: z.string(),
    taskType: z.string().nullable(),
    polarity: z.enum(LESSON_POLARITIES),
    description: z.string(),
    confidence: z
      .number()
      .openapi({ description: "Rule of succession over the leading strategy: (k+1)/(n+2)" }),
    revision: z.number().openapi({ description: "1 when written; +1 per consolidation that updated it" }),
    stats: z.object({ outcomes: z.number(), successes: z.number(), strategies: z.array(StrategyStats) }),
    citations: z.array(z.string()).openapi({ description: "The outcome memories it rests on (newest 100)" }),
    wording: z
      .string()
      .openapi({ description: "`template:v1` offline, else the prompt version (`lesson:v1`)" }),
    importance: z.number().nullable(),
    createdAt: z.string(),
    updatedAt: z.string().openapi({ description: "When the current revision was written" }),
  })
  .openapi("Lesson");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/lessons",
  operationId: "listLessons",
  tags: ["lessons"],
  summary: "The agent's lessons with counts, confidence, revision and citations",
  description:
    "Lessons are `lesson` memories written by consolidating similar outcomes; retrieve ranks them like any memory. Most confident first.",
  request: {
    params: AgentParam,
    query: z.object({
      taskType: TaskType.optional(),
      limit: z.coerce.number().int().min(1).max(MAX_LESSONS).default(100),
    }),
  },
  responses: {
    200: json(z.object({ lessons: z.array(Lesson) }), "Lessons", { lessons: [LESSON_EXAMPLE] }),
    ...apiErrors.agentRead,
  },
});

export const registerListLessons = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    const q = c.req.valid("query");
    return c.json({ lessons: await listLessons(deps.db, agentId, q) }, 200);
  });
