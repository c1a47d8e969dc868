import { createRoute, z } from "@hono/zod-openapi";
import { retryFailed } from "../../../memory/enrichment/retry";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, json } from "../../schemas";

const Retried = z
  .object({ importance: z.number().int(), embedding: z.number().int() })
  .openapi("EnrichmentRetried");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/enrichment/retry",
  operationId: "retryEnrichment",
  tags: ["agents"],
  summary: "Retry failed enrichment",
  description:
    "Puts the agent's memories whose importance or embedding failed back to pending and enqueues them. Answers with how many fields were reset.",
  request: { params: AgentParam },
  responses: {
    200: json(Retried, "Fields put back to pending", { importance: 2, embedding: 0 }),
    ...apiErrors.agentAction,
  },
});

export const registerRetryEnrichment = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await retryFailed(deps, agentId), 200);
  });
