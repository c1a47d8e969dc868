import { z } from "@hono/zod-openapi";
import { Text } from "../../../lib/storable";
import { DOCUMENT_FORMATS } from "../../../memory/documents/split";
import { LIMITS } from "../../../memory/limits";

/** A document's identity within its agent: a path or URL. */
export const DocumentSource = Text({ trim: true, min: 1, max: LIMITS.sourceChars, name: "source" }).openapi({
  example: "docs/getting-started.md",
});

/** What an imported document is, as listed and as answered by an import. */
export const DocumentFields = {
  source: z.string(),
  title: z.string().nullable(),
  format: z.enum(DOCUMENT_FORMATS),
  sections: z.number().int(),
  tokens: z.number().int(),
  importedAt: z.string(),
};
