import type { ChatMessage } from "../types.js";
import type { ImportanceExamples } from "./examples.js";

/** Most examples of each kind put in the prompt; more add tokens to every call without helping. */
export const MAX_PROMPT_EXAMPLES = 8;

/**
 * The importance prompt of Generative Agents (Park et al. 2023, appendix), word for word, with
 * optional deployment examples inserted before the memory so the scale fits the agent's world
 * (a software agent's "CI failed on main" is poignant even though nobody broke up).
 */
export function buildImportancePrompt(description: string, examples?: ImportanceExamples): ChatMessage[] {
  const lines = [
    "On the scale of 1 to 10, where 1 is purely mundane (e.g., brushing teeth, making bed) and 10 is " +
      "extremely poignant (e.g., a break up, college acceptance), rate the likely poignancy of the " +
      "following piece of memory.",
  ];
  const mundane = examples?.mundane.slice(0, MAX_PROMPT_EXAMPLES) ?? [];
  const poignant = examples?.poignant.slice(0, MAX_PROMPT_EXAMPLES) ?? [];
  if (mundane.length > 0) lines.push(`In this setting, mundane memories include: ${quoteList(mundane)}.`);
  if (poignant.length > 0) lines.push(`In this setting, poignant memories include: ${quoteList(poignant)}.`);
  // Newlines inside the memory would let it impersonate the "Rating:" line, so it is flattened.
  lines.push(`Memory: ${description.replace(/\s+/g, " ").trim()}`, "Rating: <fill in>");
  return [
    { role: "system", content: "You rate memories. Reply with the rating only: one integer from 1 to 10." },
    { role: "user", content: lines.join("\n") },
  ];
}

function quoteList(items: string[]): string {
  return items.map((s) => `"${s.replace(/\s+/g, " ").trim()}"`).join("; ");
}
