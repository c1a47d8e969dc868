import { Text } from "../../../lib/storable";
import { LIMITS } from "../../../memory/limits";

/** A document's identity within its agent: a path or URL. */
export const DocumentSource = Text({ trim: true, min: 1, max: LIMITS.sourceChars, name: "source" }).openapi({
  example: "docs/getting-started.md",
});
