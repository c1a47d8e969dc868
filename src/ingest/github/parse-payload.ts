import { Invalid } from "../../lib/errors";
import { nestedDeeper, sanitizeJson } from "../../lib/storable";
import { LIMITS } from "../../memory/limits";

const utf8 = new TextDecoder("utf-8", { fatal: true });

// In UTF-8 JSON, NUL and lone surrogates can only arrive as \u escapes (the decoder is fatal).
const UNSTORABLE_ESCAPE = /\\u(0000|[dD][89a-fA-F])/;

/**
 * Parses a signature-checked webhook body. GitHub sends JSON (`application/json`) or, when the
 * webhook is set to `application/x-www-form-urlencoded`, the same JSON in a `payload` field.
 * A delivery is never refused for what its strings hold: by the rule of `sanitizeText`
 * (src/lib/storable.ts), NUL characters are dropped and lone surrogates become U+FFFD, in
 * values and keys alike, since Postgres `jsonb`/`text` cannot store them. Throws `Invalid`
 * (field `body`) when the body is not UTF-8 JSON.
 */
export function parsePayload(raw: Uint8Array, contentType: string | undefined): unknown {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new Invalid("body is not valid UTF-8", { field: "body" });
  }
  if (contentType?.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    const form = new URLSearchParams(text).get("payload");
    if (form === null) throw new Invalid("form-encoded body has no payload field", { field: "body.payload" });
    text = form;
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    throw new Invalid(`body is not valid JSON: ${(error as Error).message}`, { field: "body" });
  }
  // Stored as jsonb and serialized on the way: a payload nested thousands deep would overflow the
  // stack there (a 500). GitHub's own payloads nest about ten deep.
  if (nestedDeeper(payload, LIMITS.webhookJsonDepth))
    throw new Invalid(`body nested deeper than ${LIMITS.webhookJsonDepth} levels`, {
      field: "body",
      limit: LIMITS.webhookJsonDepth,
    });
  // The walk costs a copy, so only payloads that can need it pay for it.
  return UNSTORABLE_ESCAPE.test(text) ? sanitizeJson(payload) : payload;
}
