/** Token counting for context budgets, with js-tiktoken's bundled ranks (no network at run time). */
import { Tiktoken } from "js-tiktoken/lite";
import cl100k_base from "js-tiktoken/ranks/cl100k_base";
import o200k_base from "js-tiktoken/ranks/o200k_base";
import { countWith, type Ranks } from "./bpe";

export const TOKEN_ENCODINGS = ["cl100k_base", "o200k_base"] as const;
export type TokenEncoding = (typeof TOKEN_ENCODINGS)[number];

/** Counts the tokens of a text. */
export type TokenCounter = (text: string) => number;

const RANKS = { cl100k_base, o200k_base } as const;

// Building an encoder parses megabytes of ranks; do it once per encoding, on first use.
const encoders = new Map<TokenEncoding, Tiktoken>();

function encoder(encoding: TokenEncoding): Tiktoken {
  let enc = encoders.get(encoding);
  if (!enc) {
    enc = new Tiktoken(RANKS[encoding]);
    encoders.set(encoding, enc);
  }
  return enc;
}

/** A counter for `encoding` (o200k_base: GPT-4o family; cl100k_base: GPT-4/3.5 and many embedders). */
export function createTokenCounter(encoding: TokenEncoding = "o200k_base"): TokenCounter {
  // The encoder is built on the first count, not here: routes create counters when the app is
  // built, and start-up should not pay for ranks no request has needed yet.
  // Special tokens count as plain text: a memory containing "<|endoftext|>" reaches the model
  // inside a prompt as text. Counted by our own merge (bpe.ts): linear enough for long runs,
  // the same counts as the encoder's `encode(text, [], []).length`.
  let pattern: RegExp | null = null;
  return (text) => {
    const ranks = encoder(encoding) as unknown as Ranks;
    pattern ??= new RegExp(ranks.patStr, "gu");
    return countWith(ranks, pattern, text);
  };
}
