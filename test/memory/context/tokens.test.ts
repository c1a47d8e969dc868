import { describe, expect, it } from "vitest";
import { createTokenCounter } from "../../../src/memory/context/tokens.js";

describe("createTokenCounter", () => {
  it("counts with o200k_base by default and cl100k_base on request", () => {
    const o200k = createTokenCounter();
    const cl100k = createTokenCounter("cl100k_base");
    expect(o200k("")).toBe(0);
    expect(o200k("hello world")).toBe(2);
    expect(cl100k("hello world")).toBe(2);
    // Pinned counts: o200k_base is denser on non-English text, which is how the two are told apart.
    expect(o200k("こんにちは世界、元気ですか")).toBe(7);
    expect(cl100k("こんにちは世界、元気ですか")).toBe(9);
  });

  it("counts special-token text as plain text instead of throwing", () => {
    const count = createTokenCounter();
    expect(count("a <|endoftext|> b")).toBe(9);
  });
});
