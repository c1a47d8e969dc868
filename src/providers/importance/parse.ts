/** Scale phrases whose numbers are not the rating: "1 to 10", "1-10", "out of 10", "/10". */
const SCALE_PHRASES = /\b1\s*(?:to|-|–)\s*10\b|\bout\s+of\s+10\b|\/\s*10\b/gi;
/** A number right after the word "rating", across markdown and punctuation: "**Rating:** 7". */
const AFTER_RATING = /rating\W{0,8}?(\d+(?:\.\d+)?)/gi;
/** A standalone number; the lookbehind keeps "-3" and "v2.1" fragments out. */
const ANY_NUMBER = /(?<![\d.\-\w])(\d+(?:\.\d+)?)/g;

/**
 * Reads an importance rating 1..10 out of a model's reply, or null when there is none.
 *
 * Rules, in order:
 * 1. Scale phrases ("1 to 10", "out of 10", "/10") are removed, so "7/10" and
 *    "I'd rate it 6 out of 10." read as 7 and 6.
 * 2. If a number follows the word "rating", the last such number decides ("Rating: 7"); when it
 *    is outside 1..10 the answer is null, since the model explicitly gave a wrong rating.
 * 3. Otherwise the first number within 1..10 decides; numbers outside it are skipped ("in 2024 … 7").
 * Decimals round half up (7.5 → 8, 9.5 → 10) after the range check on the raw value, so 10.4 and
 * 0.6 are out of range. Number words ("seven") are not read: "one" is too common in prose.
 */
export function parseImportance(text: string): number | null {
  const cleaned = text.replace(SCALE_PHRASES, " ");
  const rated = [...cleaned.matchAll(AFTER_RATING)].at(-1)?.[1];
  if (rated !== undefined) return toScore(Number(rated));
  for (const m of cleaned.matchAll(ANY_NUMBER)) {
    const score = toScore(Number(m[1]));
    if (score !== null) return score;
  }
  return null;
}

function toScore(n: number): number | null {
  if (!Number.isFinite(n) || n < 1 || n > 10) return null;
  return Math.floor(n + 0.5);
}
