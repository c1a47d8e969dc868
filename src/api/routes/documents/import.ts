import { createRoute, z } from "@hono/zod-openapi";
import { Text } from "../../../lib/storable";
import { importDocument } from "../../../memory/documents/import-document";
import { DOCUMENT_FORMATS } from "../../../memory/documents/split";
import { LIMITS } from "../../../memory/limits";
import type { App, AppDeps } from "../../deps";
import { AgentParam, apiErrors, DerivedDeleted, Importance, IsoTime, json, Metadata } from "../../schemas";
import { DocumentFields, DocumentSource } from "./schemas";

const NewDocument = z
  .object({
    source: DocumentSource,
    content: Text({ min: 1, max: LIMITS.documentChars, name: "content" }),
    format: z.enum(DOCUMENT_FORMATS).optional().openapi({
      description: "Default: from the source's extension (.html/.htm → html, .txt → text), else markdown",
    }),
    title: Text({ trim: true, min: 1, max: 200, name: "title" }).optional(),
    maxTokens: z
      .number()
      .int()
      .min(LIMITS.sectionTokens.min)
      .max(LIMITS.sectionTokens.max)
      .optional()
      .openapi({ description: `Tokens per section (default ${LIMITS.sectionTokens.default})` }),
    metadata: Metadata.optional(),
    importance: Importance.optional().openapi({
      description: "Caller-side importance of every section; otherwise scored",
    }),
    createdAt: IsoTime.optional(),
  })
  .strict()
  .openapi("NewDocument", {
    example: {
      source: "docs/deploy.md",
      content:
        "# Deploying\n\nMerge to main; CI builds the image.\n\n## Rollback\n\nRedeploy the previous tag.",
    },
  });

const Imported = z
  .object({
    ...DocumentFields,
    created: z.number().int(),
    kept: z.number().int(),
    deleted: z.number().int(),
    derived: DerivedDeleted,
    unchanged: z.boolean(),
  })
  .openapi("DocumentImport");

const route = createRoute({
  method: "post",
  path: "/v1/agents/{agentId}/documents",
  operationId: "importDocument",
  tags: ["documents"],
  summary: "Import a document (markdown, HTML or text) as sections",
  description:
    "Splits the document by its headings into sections of at most `maxTokens` tokens, each stored as a `document` memory with its source, heading path and position in metadata. Importing the same `source` again replaces the previous version in one transaction (sections whose text is unchanged are kept with their enrichment); reflections and lessons citing a removed section are deleted with it (`derived`).",
  request: {
    params: AgentParam,
    body: { required: true, content: { "application/json": { schema: NewDocument } } },
  },
  responses: {
    201: json(Imported, "Imported (or unchanged)", {
      source: "docs/deploy.md",
      title: "Deploying",
      format: "markdown",
      sections: 2,
      tokens: 31,
      created: 2,
      kept: 0,
      deleted: 0,
      derived: {},
      unchanged: false,
      importedAt: "2026-02-13T18:00:00.000Z",
    }),
    ...apiErrors.agentWrite,
  },
});

export const registerImportDocument = (app: App, deps: AppDeps) =>
  app.openapi(route, async (c) => {
    const { agentId } = c.req.valid("param");
    return c.json(await importDocument(deps, agentId, c.req.valid("json")), 201);
  });
