import { Invalid } from "../../lib/errors";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses a signature-checked webhook body. GitHub sends JSON (`application/json`) or, when the
 * webhook is set to `application/x-www-form-urlencoded`, the same JSON in a `payload` field.
 * NUL characters are dropped from strings: Postgres `jsonb` cannot store `\u0000`. Throws
 * `Invalid` (field `body`) when the body is not UTF-8 JSON.
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
  try {
    return text.includes("\\u0000") ? JSON.parse(text, dropNul) : JSON.parse(text);
  } catch (error) {
    throw new Invalid(`body is not valid JSON: ${(error as Error).message}`, { field: "body" });
  }
}

function dropNul(_key: string, value: unknown) {
  return typeof value === "string" ? value.replaceAll("\u0000", "") : value;
}
