/**
 * Lenient parsers for the reflection LLM's answers. The prompts ask for one item per line; models
 * also answer with bullets, JSON, code fences or a chatty preamble, and all of those are accepted.
 */

export type ParsedInsight = { insight: string; cites: number[] };

// Keys under which a JSON item carries its text, in order of preference.
const ITEM_KEYS = ["insight", "text", "description", "statement", "question"] as const;

// "1." "1)" "(1)" "Q1:" "-" "*" "•" list markers at the start of a line.
const LIST_MARKER = /^\s*(?:[-*•]\s+|\(?[Qq]?\d{1,3}[.):]\s+|\(\d{1,3}\)\s*)/;
// A trailing citation group: "(because of 1, 5, 3)", "(because of statements 2 and 4)", "(1, 2)".
const CITATION_GROUP =
  /\s*[([]\s*(?:because\s+of|because|based\s+on|from|see|cf\.?)?\s*(?:statements?|#)?\s*(\d(?:[\d\s,;&#]|and)*)\s*[)\]]\s*[.;]?\s*$/i;

/** The questions in an LLM answer: numbered list, bullets, plain lines or a JSON array; deduped, at most `max`. */
export function parseQuestions(text: string, max = 3): string[] {
  const fromJson = jsonItems(text);
  const items = fromJson ?? questionLines(text);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of items) {
    const text = typeof raw === "string" ? raw : itemText(raw);
    if (text === undefined) continue;
    const q = clean(text);
    const key = normalize(q);
    if (q === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(q);
  }
  return out.slice(0, Math.max(0, max));
}

/**
 * The insights in an LLM answer, each with the statement numbers it cites.
 *
 * Citation rule: statements are numbered 1..statementCount in the prompt. A cited number outside
 * that range (or not an integer) was invented by the model and is dropped. An insight left with
 * no valid citation — all invented, or none given — is rejected: a reflection must rest on real
 * memories. Cites are deduped in the order given. Identical insights (case and spacing ignored)
 * are kept once, first wins. At most `max` accepted insights are returned.
 */
export function parseInsights(text: string, statementCount: number, max = 5): ParsedInsight[] {
  const fromJson = jsonItems(text);
  // Every line is a candidate: a preamble or comment has no citation group and is rejected below.
  const candidates = fromJson ? fromJson.map(jsonInsight) : lines(text).map((l) => lineInsight(l.text));
  const out: ParsedInsight[] = [];
  const seen = new Set<string>();
  for (const c of candidates) {
    if (!c) continue;
    const insight = clean(c.insight);
    const cites = [...new Set(c.cites.filter((n) => Number.isInteger(n) && n >= 1 && n <= statementCount))];
    const key = normalize(insight);
    if (insight === "" || cites.length === 0 || seen.has(key)) continue;
    seen.add(key);
    out.push({ insight, cites });
  }
  return out.slice(0, Math.max(0, max));
}

/** Splits a line into insight text and its trailing citation group (if any). */
function lineInsight(line: string): ParsedInsight {
  const m = CITATION_GROUP.exec(line);
  if (!m || m[1] === undefined) return { insight: line, cites: [] };
  return { insight: line.slice(0, m.index), cites: numbers(m[1]) };
}

/** One JSON item: an object with the insight and its cites, or a string in the line format. */
function jsonInsight(item: unknown): ParsedInsight | null {
  if (typeof item === "string") return lineInsight(item);
  if (typeof item !== "object" || item === null) return null;
  const o = item as Record<string, unknown>;
  const text = itemText(o);
  if (text === undefined) return null;
  const because = o.because ?? o.cites ?? o.citations ?? o.evidence ?? o.sources;
  let cites: number[] = [];
  if (Array.isArray(because))
    cites = because.flatMap((v) => (typeof v === "number" ? [v] : numbers(String(v))));
  else if (typeof because === "number") cites = [because];
  else if (typeof because === "string") cites = numbers(because);
  // A JSON item may still carry "(because of ...)" inside its text; use it when no field did.
  const inline = lineInsight(text);
  return cites.length > 0 ? { insight: inline.insight, cites } : inline;
}

/** The text of a JSON object item (`{"question": ...}`, `{"insight": ...}`), if it has one. */
function itemText(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const o = item as Record<string, unknown>;
  const text = ITEM_KEYS.map((k) => o[k]).find((v) => typeof v === "string");
  return typeof text === "string" ? text : undefined;
}

/** All integers in a string, e.g. "1, 5 and 3" → [1, 5, 3]. */
function numbers(s: string): number[] {
  return (s.match(/\d+/g) ?? []).map(Number);
}

/**
 * The JSON array in an answer, if the answer is JSON: a bare array, an object holding one array
 * (`{"questions": [...]}`), possibly inside a code fence or after a preamble. Null when not JSON.
 */
function jsonItems(text: string): unknown[] | null {
  const start = text.search(/[[{]/);
  if (start < 0) return null;
  const end = Math.max(text.lastIndexOf("]"), text.lastIndexOf("}"));
  if (end <= start) return null;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  if (Array.isArray(value)) return value;
  if (typeof value === "object" && value !== null) {
    // A single item on its own, e.g. one insight object: its `because` array is not the list.
    if (ITEM_KEYS.some((k) => typeof (value as Record<string, unknown>)[k] === "string")) return [value];
    const arrays = Object.values(value).filter(Array.isArray);
    return arrays.length === 1 && arrays[0] ? arrays[0] : null;
  }
  return null;
}

type Line = { text: string; marked: boolean };

/** The non-empty lines of a plain-text answer, list markers stripped, code fences dropped. */
function lines(text: string): Line[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("```"))
    .map((l) => ({ text: l.replace(LIST_MARKER, ""), marked: LIST_MARKER.test(l) }));
}

/**
 * The question lines of a plain-text answer: lines with a list marker or ending in "?". When
 * there are none, every line except header-like ones ending in ":" (a preamble) is a question.
 */
function questionLines(text: string): string[] {
  const all = lines(text);
  const items = all.filter((l) => l.marked || l.text.endsWith("?"));
  return (items.length > 0 ? items : all.filter((l) => !l.text.endsWith(":"))).map((l) => l.text);
}

/** Trims list markers, markdown emphasis, surrounding quotes and spacing from one item. */
function clean(s: string): string {
  return s
    .replace(LIST_MARKER, "")
    .replace(/\*\*|__/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^["'“”‘’`]+|["'“”‘’`]+$/g, "")
    .trim();
}

/** Key for deduplication: case, spacing and trailing punctuation do not make a new item. */
export function normalize(s: string): string {
  return s
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/[\s.!?]+$/, "")
    .trim();
}
