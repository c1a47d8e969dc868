import { describe, expect, it } from "vitest";
import { jsonProblem, sanitizeJson, sanitizeText, storableTime, unstorable } from "../../src/lib/storable";

describe("storable", () => {
  it("tells NUL and lone surrogates from well-formed text (pairs included)", () => {
    expect(unstorable("plain é 😀")).toBeNull();
    expect(unstorable("a\u0000b")).toMatch(/NUL/);
    expect(unstorable("a\ud800")).toMatch(/surrogate/);
    expect(unstorable("\udc00a")).toMatch(/surrogate/);
  });

  it("sanitizes by the documented rule: NUL dropped, lone surrogates to U+FFFD, keys too", () => {
    expect(sanitizeText("a\u0000b\ud800c😀\udfff")).toBe("ab\ufffdc😀\ufffd");
    expect(sanitizeJson({ "k\u0000": ["x\ud800", 1, null, { y: "\u0000" }] })).toEqual({
      k: ["x\ufffd", 1, null, { y: "" }],
    });
  });

  it("finds the first unstorable part of JSON with its path, and nesting past the limit", () => {
    expect(jsonProblem({ a: [1, { b: "\u0000" }] })?.path).toEqual(["a", 1, "b"]);
    expect(jsonProblem({ a: { b: 1 } }, 2)).toBeNull();
    expect(jsonProblem({ a: { b: { c: 1 } } }, 2)?.message).toMatch(/deeper than 2/);
  });

  it("accepts instants in years 0001-9999 only", () => {
    expect(storableTime(Date.parse("0001-01-01T00:00:00Z"))).toBe(true);
    expect(storableTime(Date.parse("0000-12-31T23:59:59Z"))).toBe(false);
    expect(storableTime(Date.parse("9999-12-31T23:59:59Z"))).toBe(true);
    expect(storableTime(Date.parse("+010000-01-01T00:00:00Z"))).toBe(false);
  });
});
