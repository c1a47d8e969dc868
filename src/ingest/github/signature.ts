/**
 * GitHub webhook signatures: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`.
 * Verified on the raw bytes before anything is parsed. Several secrets are accepted so a secret
 * can be rotated (configure the new one beside the old, switch GitHub, then drop the old).
 */
import { createHmac, timingSafeEqual } from "node:crypto";

const PREFIX = "sha256=";
const HEX_DIGEST = /^[0-9a-f]{64}$/i;

/** True when `header` is a valid `sha256=` signature of `rawBody` under any of `secrets`. */
export function verifySignature(
  rawBody: Uint8Array | string,
  header: string | undefined,
  secrets: string[],
): boolean {
  if (!header?.startsWith(PREFIX)) return false;
  const hex = header.slice(PREFIX.length);
  // A malformed digest cannot match; rejecting it early also keeps Buffer.from(hex) from
  // silently dropping odd characters.
  if (!HEX_DIGEST.test(hex)) return false;
  const given = Buffer.from(hex, "hex");
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody;
  let matched = false;
  for (const secret of secrets) {
    if (secret.length === 0) continue; // an empty secret would accept anyone who knows that
    const expected = createHmac("sha256", secret).update(body).digest();
    // Compare against every secret (no early exit) so timing does not reveal which one matched.
    if (expected.length === given.length && timingSafeEqual(expected, given)) matched = true;
  }
  return matched;
}
