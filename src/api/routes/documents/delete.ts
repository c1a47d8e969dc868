import { createRoute, z } from "@hono/zod-openapi";
import { deleteDocument } from "../../../memory/documents/delete-document";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, DerivedDeleted, json } from "../../schemas";
import { DocumentSource } from "./schemas";

const route = createRoute({
  method: "delete",
  path: "/v1/agents/{agentId}/documents",
  operationId: "deleteDocument",
  tags: ["documents"],
  summary: "Delete a document source and all its sections",
  description:
    "Deletes every section memory imported from `source` (and their vectors); in the same transaction the reflections and lessons citing them (and what cites those) are deleted too; other memories are untouched. Answers how many sections were removed (0 when the source is unknown) and the derived memories deleted per kind.",
  request: { params: AgentParam, query: z.object({ source: DocumentSource }) },
  responses: {
    200: json(
      z.object({ source: z.string(), deleted: z.number().int(), derived: DerivedDeleted }),
      "Deleted (sections removed)",
      {
        source: "docs/deploy.md",
        deleted: 2,
        derived: { reflection: 1 },
      },
    ),
    ...apiErrors.agentAction,
  },
});

export const registerDeleteDocument = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await deleteDocument(deps, agentId, c.req.valid("query").source), 200);
  });
