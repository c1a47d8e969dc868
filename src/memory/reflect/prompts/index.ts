/**
 * Reflection prompts. The templates are versioned files beside this module; a change to their
 * wording is a new file (`*.v2.md`) and a new `PROMPT_VERSION`, so every stored reflection says
 * which prompt produced it.
 */
import { readFileSync } from "node:fs";
import { projectPath } from "../../../lib/paths";
import type { ChatMessage } from "../../../providers/types.js";

/** Version of the prompt files below; stored on each reflection. */
export const PROMPT_VERSION = "v1";

// Read once at module load: a missing file fails start-up, not the first reflection.
const load = (name: string): string =>
  readFileSync(projectPath("src", "memory", "reflect", "prompts", name), "utf8").trimEnd();

const QUESTIONS = load(`questions.${PROMPT_VERSION}.md`);
const INSIGHTS = load(`insights.${PROMPT_VERSION}.md`);

/** Default counts, as in the paper: 3 questions, 5 insights per question. */
export const DEFAULT_QUESTIONS = 3;
export const DEFAULT_INSIGHTS = 5;

/**
 * Replaces `{{name}}` placeholders in one pass, so text inside a value (a memory that happens to
 * contain `{{count}}`) is never substituted again. An unknown placeholder is a bug in the template.
 */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`prompt template has no value for {{${name}}}`);
    return value;
  });
}

/**
 * Numbers statements 1..N, one per line. The LLM cites these numbers, never memory ids, so an
 * invented citation is a number outside 1..N and is detectable. Whitespace inside a statement is
 * collapsed so each statement stays on exactly one numbered line.
 */
export function numberStatements(statements: string[]): string {
  return statements.map((s, i) => `${i + 1}. ${s.replace(/\s+/g, " ").trim()}`).join("\n");
}

/** The paper's question-generation prompt over the numbered recent statements. */
export function renderQuestionsPrompt(statements: string[], count = DEFAULT_QUESTIONS): ChatMessage[] {
  const content = fill(QUESTIONS, { statements: numberStatements(statements), count: String(count) });
  return [{ role: "user", content }];
}

/** The paper's insight prompt over the statements retrieved for one question. */
export function renderInsightsPrompt(
  question: string,
  statements: string[],
  count = DEFAULT_INSIGHTS,
): ChatMessage[] {
  const content = fill(INSIGHTS, {
    statements: numberStatements(statements),
    question: question.replace(/\s+/g, " ").trim(),
    count: String(count),
  });
  return [{ role: "user", content }];
}
