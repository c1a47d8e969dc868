import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifySignature } from "../../../src/ingest/github/signature.js";

/** Signs the way GitHub does: hex HMAC-SHA256 of the raw body, prefixed with `sha256=`. */
function sign(body: string | Uint8Array, secret: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

const body = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });

describe("verifySignature", () => {
  it("accepts a signature made with the secret", () => {
    expect(verifySignature(body, sign(body, "s3cret"), ["s3cret"])).toBe(true);
  });

  it("accepts raw bytes as well as a string", () => {
    const bytes = new TextEncoder().encode(body);
    expect(verifySignature(bytes, sign(bytes, "s3cret"), ["s3cret"])).toBe(true);
  });

  it("matches GitHub's documented test vector", () => {
    // From GitHub's "Validating webhook deliveries" docs.
    const header = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
    expect(verifySignature("Hello, World!", header, ["It's a Secret to Everybody"])).toBe(true);
  });

  it("rejects a signature made with another secret", () => {
    expect(verifySignature(body, sign(body, "other"), ["s3cret"])).toBe(false);
  });

  it("accepts any configured secret, so a secret can be rotated", () => {
    expect(verifySignature(body, sign(body, "old"), ["new", "old"])).toBe(true);
    expect(verifySignature(body, sign(body, "new"), ["new", "old"])).toBe(true);
  });

  it("rejects a missing header and an empty secret list", () => {
    expect(verifySignature(body, undefined, ["s3cret"])).toBe(false);
    expect(verifySignature(body, "", ["s3cret"])).toBe(false);
    expect(verifySignature(body, sign(body, ""), [])).toBe(false);
    expect(verifySignature(body, sign(body, ""), [""])).toBe(false);
  });

  it("rejects the wrong prefix (e.g. the legacy sha1 header)", () => {
    const hex = sign(body, "s3cret").slice("sha256=".length);
    expect(verifySignature(body, `sha1=${hex}`, ["s3cret"])).toBe(false);
    expect(verifySignature(body, hex, ["s3cret"])).toBe(false);
  });

  it("rejects a digest of a different length or with non-hex characters", () => {
    const good = sign(body, "s3cret");
    expect(verifySignature(body, good.slice(0, -2), ["s3cret"])).toBe(false);
    expect(verifySignature(body, `${good}00`, ["s3cret"])).toBe(false);
    expect(verifySignature(body, `${good.slice(0, -1)}z`, ["s3cret"])).toBe(false);
  });

  it("rejects a tampered body", () => {
    const header = sign(body, "s3cret");
    expect(verifySignature(body.replace("awesome", "awesome!"), header, ["s3cret"])).toBe(false);
  });
});
