/**
 * The CPU-heavy text steps, as plain functions of cloneable inputs: what a TextWork runs, in a
 * worker thread (text.worker.ts) or inline. Token counters are built once per thread and encoding.
 */
import { Invalid } from "../../lib/errors";
import { createTokenCounter, type TokenCounter, type TokenEncoding } from "../context/tokens";
import { type SplitOptions, splitDocument } from "../documents/split";

export type SplitRequest = Omit<SplitOptions, "count"> & { content: string; encoding: TokenEncoding };
export type SplitResult = ReturnType<typeof splitDocument>;

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
  /** The token count of each text. */
  count: ({ texts, encoding }: { texts: string[]; encoding: TokenEncoding }): number[] =>
    texts.map(counter(encoding)),
};
