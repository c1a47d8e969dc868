/**
 * A question's time focus, read from its words (English, deterministic, docs/adr/0026):
 * - `present`: it asks for a state as it is now — an explicit marker ("now", "currently", "these
 *   days", "latest", "still") or a present-tense state question ("Where does Alice live?", "Who is
 *   Bob dating?", "What is her favourite food?") with no past marker and no time expression.
 * - `past`: it asks for an earlier state or an event — "before", "used to", "previously",
 *   "originally", "at first", a past-tense auxiliary ("What did…", "What was…"), a named time, or
 *   "When…".
 * - `none`: anything else (no question, or neither reading).
 * With versions on (ranking/versions.ts), a present-state question lifts the newer version of a
 * fact among the best few; a past-state question or one about an event ranks by the formula alone,
 * so an old fact phrased like the question is found.
 */
export type Focus = "present" | "past" | "none";
export const FOCUSES = ["present", "past", "none"] as const satisfies Focus[];

const PRESENT_MARKER =
  /\b(now|currently|current|these days|nowadays|latest|newest|most recent|at the moment|at present|still|anymore|any more|today)\b/i;
const PAST_MARKER =
  /\b(before|used to|use to|previous|previously|formerly|former|originally|at first|first time|earlier|ago|once|back then|in the past|last (?:week|month|year|time)|yesterday)\b/i;
const PAST_AUX =
  /\b(did|was|were|had|didn't|wasn't|weren't|hadn't)\b|\b\w+ed\b(?=\s+(?:to|in|at|for|with|on|by)\b)/i;
const PRESENT_AUX = /\b(does|do|is|are|has|have|doesn't|don't|isn't|aren't|'s|'re)\b/i;
/** A named time (a year, a month, a weekday): the question is about then, not now. */
const NAMED_TIME =
  /\b(1[89]\d\d|20\d\d|jan(?:uary)?|feb(?:ruary)?|march|april|june|july|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend)\b/i;

/**
 * Which versions of a fact the ranking lifts for a question (ranking/versions.ts): the newer for a
 * present-state question; none otherwise. Lifting the older version for a past-state question
 * ("before", "used to") did not pay: it also lifted unrelated memories about the
 * same person above the version asked for (docs/adr/0026), and relevance alone finds it.
 */
export function liftOf(focus: Focus): "newer" | undefined {
  return focus === "present" ? "newer" : undefined;
}

/** The time focus of `query` (undefined or blank: `none`). */
export function timeFocus(query: string | undefined): Focus {
  const q = query?.trim();
  if (!q) return "none";
  // "When is her birthday?", "When did she go?": the question is about an event, not a state.
  if (PAST_MARKER.test(q) || NAMED_TIME.test(q) || /^when\b/i.test(q)) return "past";
  if (PRESENT_MARKER.test(q)) return "present";
  if (PAST_AUX.test(q)) return "past";
  if (PRESENT_AUX.test(q)) return "present";
  return "none";
}
