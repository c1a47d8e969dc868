/**
 * A context block in sections (e.g. lessons, then reflections, then observations), each under
 * its own header, and how sections share one token budget (docs/adr/0019).
 */
import { Invalid } from "../../lib/errors.js";
import type { Memory } from "../types.js";
import { formatMemoryLine } from "./format.js";
import type { TokenCounter } from "./tokens.js";

export type Section<T> = { title: string; memories: T[] };

const NOUNS: Record<string, string> = {
  lesson: "lessons",
  reflection: "reflections",
  observation: "observations",
  document: "document sections",
  plan: "plans",
  outcome: "outcomes",
};

/** A section's header when the request gives none: its kinds in words ("Lessons", "Observations and plans"). */
export function defaultTitle(kinds: readonly string[] | null): string {
  if (!kinds) return "Other memories (most relevant first)";
  const words = kinds.map((k) => NOUNS[k] ?? `${k} memories`);
  const list = words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : (words[0] ?? "");
  return `${list.charAt(0).toUpperCase()}${list.slice(1)} (most relevant first)`;
}

/**
 * The sectioned block: per non-empty section a `Title:` line and one line per memory (the
 * format of `formatMemoryLine`), sections separated by a blank line; "" when all are empty.
 */
export function formatSections(sections: Section<Memory>[]): string {
  return sections
    .filter((s) => s.memories.length > 0)
    .map((s) => [`${s.title}:`, ...s.memories.map(formatMemoryLine)].join("\n"))
    .join("\n\n");
}

/**
 * Fits sections into `maxTokens` in priority order: section 0 takes its best-first prefix that
 * fits (stopping at its first miss, as `fitToBudget` does), then section 1 from what is left, and
 * so on. A later section may still add memories after an earlier one stopped: its lines may be
 * shorter, and it never displaces a memory of an earlier section. The whole block is counted
 * each time (BPE counts are not additive), so `tokens === count(formatSections(result))`.
 */
export function fitSections<T extends Memory>(
  ranked: Section<T>[],
  maxTokens: number,
  count: TokenCounter,
): { sections: Section<T>[]; tokens: number; truncated: boolean[] } {
  if (!Number.isInteger(maxTokens) || maxTokens < 0) {
    throw new Invalid("maxTokens must be a non-negative integer", { field: "maxTokens", value: maxTokens });
  }
  const chosen: Section<T>[] = ranked.map((s) => ({ title: s.title, memories: [] }));
  const truncated = ranked.map(() => false);
  let tokens = 0;
  ranked.forEach((section, i) => {
    const mine = chosen[i] as Section<T>;
    for (const m of section.memories) {
      mine.memories.push(m);
      const t = count(formatSections(chosen));
      if (t > maxTokens) {
        mine.memories.pop();
        truncated[i] = true;
        break;
      }
      tokens = t;
    }
  });
  return { sections: chosen, tokens, truncated };
}
