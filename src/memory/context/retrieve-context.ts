/**
 * Context assembly: the top-ranked memories that fit a token budget, and the prompt-ready text
 * block they form. The budget rule is `fitToBudget`'s (docs/adr/0001).
 */
import type { MemoryDeps } from "../deps";
import { LIMITS } from "../limits";
import { RETRIEVE_DEFAULTS, type RetrieveInput, type RetrieveResult, retrieve } from "../retrieve/retrieve";
import { touchMemories } from "../retrieve/touch";
import type { ScoredMemory } from "../types";
import { fitToBudget } from "./fit";
import { formatContext } from "./format";
import { createTokenCounter, type TokenEncoding } from "./tokens";

/**
 * Candidates ranked when `maxTokens` is given without `k`: enough for a few thousand tokens of
 * typical one-line memories, so the budget, not k, decides. Bounded by `LIMITS.maxK`.
 */
export const CONTEXT_DEFAULT_K = Math.min(50, LIMITS.maxK);

export type ContextInput = RetrieveInput & {
  /** Token budget for the text block (header included); absent = no budget, k decides. */
  maxTokens?: number;
  /** "text" adds the prompt-ready block to the answer. */
  format?: "json" | "text";
};

export type ContextResult = {
  memories: ScoredMemory[];
  mode: RetrieveResult["mode"];
  ranking: RetrieveResult["ranking"];
  candidates: number;
  context: {
    /** The block, present when format is "text". */
    text?: string;
    /** Tokens of the block formed by `memories`, counted with `encoding`; ≤ maxTokens. */
    tokens: number;
    encoding: TokenEncoding;
    /** Some ranked candidates were left out to fit the budget. */
    truncated: boolean;
  };
};

/**
 * Ranks like `retrieve` without touching, keeps the best-first prefix that fits `maxTokens`,
 * then touches only what is returned (when touch is on), so memories cut by the budget keep
 * their access time.
 */
export async function retrieveContext(
  deps: MemoryDeps,
  agentId: string,
  input: ContextInput,
  encoding: TokenEncoding,
): Promise<ContextResult> {
  const { maxTokens, format, ...rest } = input;
  const k = rest.k ?? (maxTokens === undefined ? RETRIEVE_DEFAULTS.k : CONTEXT_DEFAULT_K);
  const {
    memories: ranked,
    mode,
    ranking,
    candidates,
  } = await retrieve(deps, agentId, { ...rest, k, touch: false });
  const count = createTokenCounter(encoding);
  const fitted =
    maxTokens === undefined
      ? { memories: ranked, tokens: count(formatContext(ranked)), truncated: false }
      : fitToBudget(ranked, maxTokens, count);

  if (rest.touch ?? RETRIEVE_DEFAULTS.touch) {
    const now = rest.now ? new Date(rest.now) : deps.clock.now();
    const touched = await touchMemories(
      deps.db,
      agentId,
      fitted.memories.map((m) => m.id),
      now,
    );
    for (const m of fitted.memories) m.lastAccessedAt = touched.get(m.id) ?? m.lastAccessedAt;
  }
  const context: ContextResult["context"] = { tokens: fitted.tokens, encoding, truncated: fitted.truncated };
  if (format === "text") context.text = formatContext(fitted.memories);
  return { memories: fitted.memories, mode, ranking, candidates, context };
}
