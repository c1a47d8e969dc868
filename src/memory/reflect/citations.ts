/** Maps the statement numbers an LLM cited back to the ids of the memories shown as those statements. */
import type { ParsedInsight } from "./parse.js";

export type MappedInsight = { description: string; citations: string[] };

/**
 * Turns each insight's 1-based statement numbers into memory ids (`statementIds[n - 1]`), deduped
 * in citation order. Numbers without a statement are dropped and an insight left with no citation
 * is dropped, the same rule as `parseInsights`, so a reflection never cites a memory that was not
 * in its prompt.
 */
export function mapCitations(insights: ParsedInsight[], statementIds: string[]): MappedInsight[] {
  const out: MappedInsight[] = [];
  for (const { insight, cites } of insights) {
    const ids = new Set<string>();
    for (const n of cites) {
      const id = Number.isInteger(n) && n >= 1 ? statementIds[n - 1] : undefined;
      if (id !== undefined) ids.add(id);
    }
    if (ids.size > 0) out.push({ description: insight, citations: [...ids] });
  }
  return out;
}
