/**
 * The lesson prompt. Versioned like the reflection prompts (src/memory/reflect/prompts): a change
 * of wording is a new file (`lesson.v2.md`) and a new `LESSON_PROMPT_VERSION`, and every lesson
 * revision records which prompt (or `template:v1`) worded it.
 */
import { readFileSync } from "node:fs";
import { projectPath } from "../../../lib/paths";
import type { ChatMessage } from "../../../providers/types";
import { fill } from "../../reflect/prompts";
import { type LessonFacts, subject, templateWording } from "../stats";

export const LESSON_PROMPT_VERSION = "lesson:v1";

// Read once at module load: a missing file fails start-up, not the first consolidation.
const LESSON = readFileSync(
  projectPath("src", "memory", "lessons", "prompts", "lesson.v1.md"),
  "utf8",
).trimEnd();

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** One line per strategy: attempts, successes, failures and the most frequent errors. */
export function strategyLines(f: LessonFacts): string {
  return f.stats.strategies
    .map((s) => {
      const errors = s.errors.map((e) => `"${oneLine(e.error)}" ×${e.count}`).join(", ");
      const name = s.strategy ? oneLine(s.strategy) : "(no strategy given)";
      return `- ${name}: ${s.attempts} attempts, ${s.successes} succeeded, ${s.failures} failed${errors ? `; errors: ${errors}` : ""}`;
    })
    .join("\n");
}

/** The lesson prompt over the facts; the template wording is given as the summary to keep to. */
export function renderLessonPrompt(f: LessonFacts): ChatMessage[] {
  const content = fill(LESSON, {
    subject: oneLine(subject(f)),
    strategies: strategyLines(f),
    summary: templateWording(f),
  });
  return [{ role: "user", content }];
}

/** Longest lesson wording kept from a model; a longer answer is not a short lesson. */
export const MAX_LESSON_CHARS = 600;

/** The model's answer as a lesson, or null when it is not one (empty, too long). */
export function parseLessonReply(text: string): string | null {
  const line = oneLine(text.replace(/^["'`]+|["'`]+$/g, ""));
  if (line.length === 0 || line.length > MAX_LESSON_CHARS) return null;
  return line;
}
