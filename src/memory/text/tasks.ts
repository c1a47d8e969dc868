/**
 * The CPU-heavy text steps, as plain functions of cloneable inputs: what a TextWork runs, in a
 * worker thread (text.worker.ts) or inline. Token counters are built once per thread and encoding.
 */
import { Invalid } from "../../lib/errors";
import { fitToBudget } from "../context/fit";
import { formatContext } from "../context/format";
import { fitSections, formatSections } from "../context/sections";
import { createTokenCounter, type TokenCounter, type TokenEncoding } from "../context/tokens";
import { type SplitOptions, splitDocument } from "../documents/split";
import type { Memory } from "../types";

export type SplitRequest = Omit<SplitOptions, "count"> & { content: string; encoding: TokenEncoding };
export type SplitResult = ReturnType<typeof splitDocument>;

/** What a context line shows of a memory (format.ts): only this crosses to the thread. */
export type LineFields = Pick<
  Memory,
  "description" | "createdAt" | "kind" | "citations" | "missingCitations"
> &
  Partial<Pick<Memory, "supersededBy" | "validUntil">>;
/** Memories to fit in a token budget: one list, or titled sections (context/sections.ts). */
export type FitRequest = {
  encoding: TokenEncoding;
  /** Absent: nothing is cut, the block is only counted. */
  maxTokens?: number;
  sections: { title: string; memories: LineFields[] }[] | null;
  memories: LineFields[];
};
/** How many of each list's memories (best first) fit, and the block's tokens. */
export type FitResult = { kept: number[]; tokens: number; truncated: boolean[] };

const counters = new Map<TokenEncoding, TokenCounter>();
const counter = (encoding: TokenEncoding): TokenCounter => {
  const known = counters.get(encoding);
  if (known) return known;
  const made = createTokenCounter(encoding);
  counters.set(encoding, made);
  return made;
};

export const textTasks = {
  /** A document's sections (HTML converted, Markdown parsed, sections packed within their budget). */
  split: ({ content, encoding, ...opts }: SplitRequest): SplitResult => {
    try {
      return splitDocument(content, { ...opts, count: counter(encoding) });
    } catch (err) {
      // The bounds (documents/bounds.ts) keep the parsers' recursion shallow; should a shape they
      // do not foresee still overflow the stack, it is the document's nesting, not a server fault.
      if (err instanceof RangeError && /call stack/i.test(err.message))
        throw new Invalid("the document nests too deep to convert; flatten its lists, quotes or elements", {
          field: "content",
        });
      throw err;
    }
  },
  /**
   * The best-first prefixes that fit `maxTokens` (fit.ts, sections.ts) and their block's tokens:
   * the counting a context block needs, recounting the block per candidate as those rules do.
   */
  fit: ({ encoding, maxTokens, sections, memories }: FitRequest): FitResult => {
    const count = counter(encoding);
    const all = memories as Memory[];
    if (sections) {
      const lists = sections.map((s) => ({ title: s.title, memories: s.memories as Memory[] }));
      if (maxTokens === undefined)
        return {
          kept: lists.map((l) => l.memories.length),
          tokens: count(formatSections(lists)),
          truncated: lists.map(() => false),
        };
      const fit = fitSections(lists, maxTokens, count);
      return {
        kept: fit.sections.map((l) => l.memories.length),
        tokens: fit.tokens,
        truncated: fit.truncated,
      };
    }
    if (maxTokens === undefined)
      return { kept: [all.length], tokens: count(formatContext(all)), truncated: [false] };
    const fit = fitToBudget(all, maxTokens, count);
    return { kept: [fit.memories.length], tokens: fit.tokens, truncated: [fit.truncated] };
  },
  /** The token count of each text. */
  count: ({ texts, encoding }: { texts: string[]; encoding: TokenEncoding }): number[] =>
    texts.map(counter(encoding)),
};
