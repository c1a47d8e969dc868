/**
 * Context assembly: the top-ranked memories that fit a token budget, and the prompt-ready text
 * block they form. The budget rule is `fitToBudget`'s (docs/adr/0001).
 */
import type { MemoryDeps } from "../deps";
import { LIMITS } from "../limits";
import {
  RETRIEVE_DEFAULTS,
  type RetrieveInput,
  type RetrieveResult,
  type RetrieveSection,
  retrieve,
} from "../retrieve/retrieve";
import { touchMemories } from "../retrieve/touch";
import type { LineFields } from "../text/tasks";
import type { TextWork } from "../text/text-work";
import type { ScoredMemory } from "../types";
import { formatContext } from "./format";
import { defaultTitle, formatSections, type Section } from "./sections";
import type { TokenEncoding } from "./tokens";

/**
 * Candidates ranked when `maxTokens` is given without `k`: enough for a few thousand tokens of
 * typical one-line memories, so the budget, not k, decides. Bounded by `LIMITS.maxK`.
 */
export const CONTEXT_DEFAULT_K = Math.min(50, LIMITS.maxK);

/** A section of the block: which kinds, how many candidates, and its header (default: from the kinds). */
export type ContextSection = RetrieveSection & { title?: string };

export type ContextInput = Omit<RetrieveInput, "sections"> & {
  /** The block in sections, in this order, under one maxTokens (sections.ts); absent = one list. */
  sections?: ContextSection[];
  /** Token budget for the text block (header included); absent = no budget, k decides. */
  maxTokens?: number;
  /** "text" adds the prompt-ready block to the answer. */
  format?: "json" | "text";
};

export type ContextResult = {
  retrievalId: string;
  memories: ScoredMemory[];
  mode: RetrieveResult["mode"];
  ranking: RetrieveResult["ranking"];
  freshness: RetrieveResult["freshness"];
  candidates: number;
  context: {
    /** The block, present when format is "text". */
    text?: string;
    /** Tokens of the block formed by `memories`, counted with `encoding`; ≤ maxTokens. */
    tokens: number;
    encoding: TokenEncoding;
    /** Some ranked candidates were left out to fit the budget. */
    truncated: boolean;
    /** Per section, when the request had sections: its header, kinds, memories returned and whether the budget cut it. */
    sections?: { title: string; kinds: string[] | null; count: number; truncated: boolean }[];
  };
};

/** Where a context block is counted: a TextWork's threads (the tokenizer never runs on the event loop). */
export type ContextText = Pick<TextWork, "encoding" | "fitContext">;

/**
 * Ranks like `retrieve` without touching, keeps the best-first prefix that fits `maxTokens`,
 * then touches only what is returned (when touch is on), so memories cut by the budget keep
 * their access time. The counting runs in `text`'s threads: building the tokenizer takes seconds
 * and a budget over long memories counts megabytes (23 s with two memories of 8,000
 * letters), which would hold every other request on the event loop.
 */
export async function retrieveContext(
  deps: MemoryDeps,
  agentId: string,
  input: ContextInput,
  text: ContextText,
): Promise<ContextResult> {
  const encoding = text.encoding;
  const { maxTokens, format, ...rest } = input;
  const k = rest.k ?? (maxTokens === undefined ? RETRIEVE_DEFAULTS.k : CONTEXT_DEFAULT_K);
  const {
    retrievalId,
    memories: ranked,
    mode,
    ranking,
    freshness,
    candidates,
  } = await retrieve(deps, agentId, { ...rest, k, touch: false });
  const split = input.sections ? splitSections(ranked, input.sections) : null;
  const fit = await text.fitContext({
    ...(maxTokens === undefined ? {} : { maxTokens }),
    sections: split ? split.map((s) => ({ title: s.title, memories: s.memories.map(lineFields) })) : null,
    memories: split ? [] : ranked.map(lineFields),
  });
  const fitted = split
    ? sectionsFitted(split, input.sections ?? [], fit)
    : {
        memories: ranked.slice(0, fit.kept[0] ?? 0),
        tokens: fit.tokens,
        truncated: fit.truncated[0] ?? false,
      };

  // As of a time (asOf) nothing is touched, as retrieve itself does.
  if ((rest.touch ?? RETRIEVE_DEFAULTS.touch) && rest.asOf === undefined) {
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
  if (format === "text") context.text = "text" in fitted ? fitted.text : formatContext(fitted.memories);
  if ("sections" in fitted) context.sections = fitted.sections;
  return { retrievalId, memories: fitted.memories, mode, ranking, freshness, candidates, context };
}

type SectionsFitted = {
  memories: ScoredMemory[];
  tokens: number;
  truncated: boolean;
  text: string;
  sections: NonNullable<ContextResult["context"]["sections"]>;
};

/** The ranked rows (section by section, each row tagged with its index) as titled sections. */
function splitSections(ranked: ScoredMemory[], specs: ContextSection[]): Section<ScoredMemory>[] {
  const sections = specs.map((s) => ({
    title: s.title ?? defaultTitle(s.kinds?.length ? s.kinds : null),
    memories: [] as ScoredMemory[],
  }));
  for (const m of ranked) sections[m.section ?? 0]?.memories.push(m);
  return sections;
}

/** What a context line shows of a memory: all the counting thread needs of it. */
const lineFields = (m: ScoredMemory): LineFields => ({
  description: m.description,
  createdAt: m.createdAt,
  kind: m.kind,
  citations: m.citations,
  ...(m.missingCitations ? { missingCitations: m.missingCitations } : {}),
  ...(m.supersededBy ? { supersededBy: m.supersededBy, validUntil: m.validUntil } : {}),
});

/** The sections cut to what fitted, flattened in section order. */
function sectionsFitted(
  split: Section<ScoredMemory>[],
  specs: ContextSection[],
  fit: { kept: number[]; tokens: number; truncated: boolean[] },
): SectionsFitted {
  const sections = split.map((s, i) => ({ title: s.title, memories: s.memories.slice(0, fit.kept[i] ?? 0) }));
  return {
    memories: sections.flatMap((s) => s.memories),
    tokens: fit.tokens,
    truncated: fit.truncated.some(Boolean),
    text: formatSections(sections),
    sections: sections.map((s, i) => ({
      title: s.title,
      kinds: specs[i]?.kinds?.length ? [...new Set(specs[i]?.kinds)] : null,
      count: s.memories.length,
      truncated: fit.truncated[i] ?? false,
    })),
  };
}
