import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import cl100k_base from "js-tiktoken/ranks/cl100k_base";
import o200k_base from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { createTokenCounter, type TokenEncoding } from "../../../src/memory/context/tokens.js";
import { FUZZ_SEED } from "../../support/env.js";

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

describe("the merge behind createTokenCounter (src/memory/context/bpe.ts)", () => {
  // The reference: js-tiktoken's own encoder, whose merge is quadratic in a piece's length.
  const reference = {
    o200k_base: new Tiktoken(o200k_base),
    cl100k_base: new Tiktoken(cl100k_base),
  };
  const counters = {
    o200k_base: createTokenCounter("o200k_base"),
    cl100k_base: createTokenCounter("cl100k_base"),
  };
  // Text of words, runs of one letter or symbol, digits, emoji, accents and line breaks: what
  // makes pieces long, merges tie and the split pattern switch between its branches.
  const text = fc
    .array(
      fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.stringMatching(/^[a-zA-Z]{1,200}$/),
        fc.constantFrom("#", "[", "<", ">", "*", "=", "-", "a", "é", "😀", "\n", " ", "€", "1"),
        fc
          .tuple(fc.constantFrom("#", "[", "*", "ab", "x1", "=-"), fc.integer({ min: 1, max: 150 }))
          .map(([s, n]) => s.repeat(n)),
        fc.constantFrom(
          "The quick brown fox",
          "<|endoftext|>",
          "don't",
          "  \n\n",
          "émigré façade",
          "こんにちは",
        ),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(""));

  it("counts exactly what js-tiktoken's encoder counts, in both encodings", () => {
    fc.assert(
      fc.property(
        text,
        fc.constantFrom("o200k_base", "cl100k_base") as fc.Arbitrary<TokenEncoding>,
        (t, enc) => {
          expect(counters[enc](t)).toBe(reference[enc].encode(t, [], []).length);
        },
      ),
      { seed: FUZZ_SEED, numRuns: 300 },
    );
  });

  it("counts a long unbroken run (one piece) as the encoder does", () => {
    // 1,500 letters: the reference still answers within a second or so; the merge is what differs.
    let run = "";
    let x = 3;
    for (let i = 0; i < 1500; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      run += String.fromCharCode(97 + (x % 26));
    }
    expect(counters.o200k_base(run)).toBe(reference.o200k_base.encode(run, [], []).length);
    expect(counters.cl100k_base(`${"[".repeat(700)}${"#".repeat(700)}`)).toBe(
      reference.cl100k_base.encode(`${"[".repeat(700)}${"#".repeat(700)}`, [], []).length,
    );
  });
});
