/**
 * The prompt-ready text form of memories. The format is a contract with prompts downstream:
 * change it only with a test update and a note, since budgets and cached prompts depend on it.
 */
import type { Memory } from "../types.js";

/** First line of every non-empty context block. */
export const CONTEXT_HEADER = "Relevant memories (most relevant first):";

/**
 * One memory as one line: `- [YYYY-MM-DD HH:MM UTC] (kind) description`. Reflections are marked
 * `★` and end with `[cites N]`, N the number of memories they rest on, or `[cites N, G gone]` when
 * G of those have been deleted since. A superseded memory ends with
 * `[until YYYY-MM-DD HH:MM UTC, replaced by <id>]` (docs/adr/0029). A memory standing for N
 * duplicates folded into it (collapseDuplicates) ends with `[seen N+1 times]`. Whitespace in the
 * description is collapsed so a memory never spans lines.
 */
export function formatMemoryLine(
  m: Pick<Memory, "description" | "createdAt" | "kind" | "citations" | "missingCitations"> &
    Partial<Pick<Memory, "supersededBy" | "validUntil">> & { duplicates?: number },
): string {
  const text = m.description.replace(/\s+/g, " ").trim();
  const head = `- [${formatTime(m.createdAt)}] (${m.kind})`;
  const until = m.supersededBy
    ? ` [until ${m.validUntil ? formatTime(m.validUntil) : "?"}, replaced by ${m.supersededBy}]`
    : "";
  const seen = m.duplicates ? ` [seen ${m.duplicates + 1} times]` : "";
  if (m.kind === "reflection") {
    const gone = m.missingCitations?.length ?? 0;
    return `${head} ★ ${text} [cites ${m.citations.length}${gone > 0 ? `, ${gone} gone` : ""}]${seen}${until}`;
  }
  return `${head} ${text}${seen}${until}`;
}

/** The context block: the header, then one line per memory in the given order; "" for no memories. */
export function formatContext(memories: (Memory & { duplicates?: number })[]): string {
  if (memories.length === 0) return "";
  return [CONTEXT_HEADER, ...memories.map(formatMemoryLine)].join("\n");
}

/** ISO time as `YYYY-MM-DD HH:MM UTC`, minute precision; an unparsable value is shown as given. */
function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
