import { z } from "@hono/zod-openapi";
import { LIMITS } from "../../../memory/limits";

/** A document's identity within its agent: a path or URL. */
export const DocumentSource = z
  .string()
  .trim()
  .min(1, "source must not be empty")
  .max(LIMITS.sourceChars, `source over ${LIMITS.sourceChars} characters`)
  .openapi({ example: "docs/getting-started.md" });
