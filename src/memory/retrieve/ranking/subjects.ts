/**
 * The question's subject (docs/adr/0037): a question that names someone ("What activities does
 * Melanie partake in?") is about what that one said or did, so among the first phase's best
 * (the pool the statement ranked, k + DUPLICATE_POOL) a memory whose description starts with a
 * name the question gives ("Melanie said, …", "Melanie signed up for …") gains SUBJECT_LIFT times
 * the relevance weight. It moves memories up from the pool into the top k; nothing outside the
 * pool is read, and the set the formula ranked is unchanged. An English rule (capitalised names,
 * language.ts): it runs only where the time focus does.
 */

/** The lift per relevance weight: the smallest of the values that did equally well (docs/adr/0039). */
export const SUBJECT_LIFT = 0.05;

// Capitalised words a question starts sentences or phrases with, and names of times: never a subject.
const NOT_NAMES = new Set(
  (
    "I I'm I've I'd I'll The A An In On At Of For To From By With And Or But If When What Who Whom Whose Where " +
    "Which Why How Is Are Was Were Do Does Did Has Have Had Can Could Would Should Will May Might Must " +
    "Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April June July " +
    "August September October November December"
  ).split(" "),
);

/**
 * The names a question gives: capitalised words (Latin letters) other than its first word and
 * function words, without a possessive `'s`; each once, at most 4.
 */
export function questionSubjects(query: string | undefined): string[] {
  if (!query) return [];
  const words = query.match(/[A-Za-z][A-Za-z'’-]*/g) ?? [];
  const names = new Set<string>();
  for (const [i, raw] of words.entries()) {
    const word = raw.replace(/['’]s$/, "").replace(/['’-]+$/, "");
    if (i === 0 || word.length < 2 || !/^[A-Z][a-z]/.test(word) || NOT_NAMES.has(word)) continue;
    names.add(word);
  }
  return [...names].slice(0, 4);
}

/** Whether `description` starts with one of `names` as a whole word. */
export function startsWithSubject(description: string, names: readonly string[]): boolean {
  const head = description.trimStart();
  return names.some((n) => head.startsWith(n) && !/[\p{L}\p{N}]/u.test(head.charAt(n.length)));
}

/**
 * The pool `rows` (best first) with `lift` added to the score of each whose description starts
 * with one of `names` (`sSubject`: the score gained), re-ordered by the new score; equal scores
 * keep the statement's order. A version lift (`sLift`, ranking/versions.ts) gave a newer version
 * the score of the older one it replaces: the two are one fact, so both take the larger subject
 * lift of the two ("These days Alice prefers ramen" rises with "Alice's favourite food is sushi"),
 * and the lift never reorders versions. No names: the rows as they are.
 */
export function liftSubjects<
  R extends { description: string; score: number | string; sLift?: number | string },
>(rows: R[], names: readonly string[], lift: number): (R & { sSubject: number })[] {
  if (names.length === 0 || lift <= 0) return rows.map((r) => ({ ...r, sSubject: 0 }));
  const own = rows.map((r) => (startsWithSubject(r.description, names) ? lift : 0));
  // Scores a version lift made equal: the largest subject lift among the rows holding each.
  const shared = new Map<number, number>();
  for (const r of rows) if (Number(r.sLift ?? 0) > 0) shared.set(Number(r.score), 0);
  rows.forEach((r, i) => {
    const at = shared.get(Number(r.score));
    if (at !== undefined) shared.set(Number(r.score), Math.max(at, own[i] ?? 0));
  });
  const out = rows.map((r, i) => {
    const gained = Math.max(own[i] ?? 0, shared.get(Number(r.score)) ?? 0);
    return { row: { ...r, score: Number(r.score) + gained, sSubject: gained }, i };
  });
  out.sort((a, b) => b.row.score - a.row.score || a.i - b.i);
  return out.map((x) => x.row);
}
