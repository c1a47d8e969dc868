/**
 * The supersession prompt (docs/adr/0029). Versioned like the reflection and lesson prompts: a
 * change of wording is a new file (`supersede.v2.md`) and a new SUPERSEDE_PROMPT_VERSION.
 */
import { readFileSync } from "node:fs";
import { InvalidProviderAnswer } from "../../lib/errors";
import { projectPath } from "../../lib/paths";
import type { ChatMessage } from "../../providers/types";
import { fill, numberStatements } from "../reflect/prompts";

export const SUPERSEDE_PROMPT_VERSION = "supersede:v1";

// Read once at module load: a missing file fails start-up, not the first job.
const TEMPLATE = readFileSync(
  projectPath("src", "memory", "supersession", "prompts", "supersede.v1.md"),
  "utf8",
).trimEnd();

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

/** The prompt for one new memory against its numbered earlier look-alikes (each with its date). */
export function renderSupersedePrompt(
  next: { description: string; createdAt: Date },
  earlier: { description: string; createdAt: Date }[],
): ChatMessage[] {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const content = fill(TEMPLATE, {
    newAt: day(next.createdAt),
    new: oneLine(next.description),
    earlier: numberStatements(earlier.map((e) => `(${day(e.createdAt)}) ${oneLine(e.description)}`)),
  });
  return [{ role: "user", content }];
}

/**
 * The numbers (1-based, within 1..n) of the earlier memories replaced: the first JSON object of the
 * answer with a `replaced` array of integers. Anything else is InvalidProviderAnswer (retried);
 * numbers outside 1..n (invented) are dropped.
 */
export function parseSupersedeAnswer(text: string, n: number): number[] {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  let parsed: unknown;
  try {
    parsed = start >= 0 && end > start ? JSON.parse(text.slice(start, end + 1)) : undefined;
  } catch {
    parsed = undefined;
  }
  const replaced = (parsed as { replaced?: unknown } | undefined)?.replaced;
  if (!Array.isArray(replaced) || !replaced.every((x) => Number.isInteger(x))) {
    throw new InvalidProviderAnswer("supersession answer has no replaced list of numbers", {
      answer: text.slice(0, 200),
    });
  }
  return [...new Set(replaced as number[])].filter((x) => x >= 1 && x <= n);
}
