import { createRoute, z } from "@hono/zod-openapi";
import { listDocuments } from "../../../memory/documents/list-documents";
import { LIMITS } from "../../../memory/limits";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, json } from "../../schemas";
import { DocumentFields, DocumentSource } from "./schemas";

const Query = z.object({
  limit: z.coerce.number().int().min(1).max(LIMITS.maxPageSize).default(100),
  after: DocumentSource.optional().openapi({ description: "The `next` of the previous page" }),
});

const DocumentSummary = z.object(DocumentFields).openapi("Document");

const route = createRoute({
  method: "get",
  path: "/v1/agents/{agentId}/documents",
  operationId: "listDocuments",
  tags: ["documents"],
  summary: "List the agent's imported documents by source",
  description:
    "One entry per imported document source: its title, format, number of sections and tokens, and when it was last imported. Cursor-paginated by source (`next`).",
  request: { params: AgentParam, query: Query },
  responses: {
    200: json(z.object({ documents: z.array(DocumentSummary), next: z.string().nullable() }), "A page", {
      documents: [
        {
          source: "docs/deploy.md",
          title: "Deploying",
          format: "markdown",
          sections: 2,
          tokens: 31,
          importedAt: "2026-02-13T18:00:00.000Z",
        },
      ],
      next: null,
    }),
    ...apiErrors.agentRead,
  },
});

export const registerListDocuments = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await listDocuments(deps, agentId, c.req.valid("query")), 200);
  });
