/** Fitting ranked memories into a token budget for a prompt. */
import { Invalid } from "../../lib/errors.js";
import type { Memory } from "../types.js";
import { formatContext } from "./format.js";

export type Fitted<T> = { memories: T[]; tokens: number; truncated: boolean };

/**
 * The longest best-first prefix of `ranked` whose context block fits in `maxTokens`.
 *
 * What is counted: the whole block `formatContext(chosen)`, header and newlines included, so the
 * returned `tokens === count(formatContext(memories))` and the text given to the model fits the
 * budget exactly. No memories means the empty block: 0 tokens (a budget below the header and the
 * first line yields nothing).
 *
 * Stop at the first miss: when a memory does not fit, scanning stops, even if a shorter,
 * lower-ranked memory would. The result is always the top k of the ranking, never a lower-ranked
 * memory in place of a better one. `truncated` says some ranked memories were left out.
 *
 * The block is recounted for each candidate because BPE counts are not additive across lines
 * (tokens can merge over a join); cost is k encodings of at most the budget, fine for prompt sizes.
 */
export function fitToBudget<T extends Memory>(
  ranked: T[],
  maxTokens: number,
  count: (s: string) => number,
): Fitted<T> {
  if (!Number.isInteger(maxTokens) || maxTokens < 0) {
    throw new Invalid("maxTokens must be a non-negative integer", { field: "maxTokens", value: maxTokens });
  }
  let chosen: T[] = [];
  let tokens = 0;
  for (const m of ranked) {
    const next = [...chosen, m];
    const t = count(formatContext(next));
    if (t > maxTokens) break;
    chosen = next;
    tokens = t;
  }
  return { memories: chosen, tokens, truncated: chosen.length < ranked.length };
}
