import { createHmac, randomBytes } from "node:crypto";

/**
 * `X-Memstream-Signature-256` of a body, as GitHub signs its deliveries: `sha256=` and the hex
 * HMAC-SHA256 of the raw body bytes under the subscription's secret. A receiver recomputes it over
 * the body exactly as received and compares in constant time.
 */
export const signature = (secret: string, body: string): string =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

/** A new subscription's secret: 32 random bytes, hex, `whsec_`-prefixed. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString("hex")}`;
