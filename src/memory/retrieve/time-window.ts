/**
 * Time expressions in a retrieve query ("in June 2023", "on 9 May, 2022", "May 9th", "last June",
 * "yesterday", "last week", "two weeks ago", "in 2022") → the [start, end) window they name, in
 * epoch seconds (UTC), relative to the retrieve's `now` when the year is missing or the phrase is
 * relative. English only, first match wins (most specific first: a day, then a month, then
 * relative phrases, then a year). The time filter (ranking field `timeFilter`, ADR 0014) keeps
 * the memories created inside the window, widened by TIME_WINDOW_SLACK_S on each side.
 */
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const MONTH =
  "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const monthIndex = (s: string) => MONTHS.findIndex((m) => m.startsWith(s.toLowerCase().slice(0, 3)));
const DAY = 86_400;
const utc = (y: number, m: number, d: number) => Date.UTC(y, m, d) / 1000;
const NUM: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };

/** The most recent year in which (month, day) is not after now. */
function yearFor(now: Date, month: number, day: number): number {
  const y = now.getUTCFullYear();
  return utc(y, month, day) <= now.getTime() / 1000 ? y : y - 1;
}

export type Window = { start: number; end: number };

/**
 * One day on each side: a date said in the user's time zone may be another day in UTC, and
 * a conversation about an event is often stored the day after. A wider window did not find more
 * (docs/adr/0014).
 */
export const TIME_WINDOW_SLACK_S = 86_400;

export function timeWindow(text: string, now: Date): Window | null {
  const t = text.toLowerCase();
  const nowS = Math.floor(now.getTime() / 1000);
  const today = utc(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let m = t.match(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?: of)? ${MONTH},? ?(\\d{4})?\\b`));
  if (m) {
    const mo = monthIndex(m[2] as string);
    const d = Number(m[1]);
    const y = m[3] ? Number(m[3]) : yearFor(now, mo, d);
    return { start: utc(y, mo, d), end: utc(y, mo, d + 1) };
  }
  m = t.match(new RegExp(`\\b${MONTH} (\\d{1,2})(?:st|nd|rd|th)?(?:,? (\\d{4}))?\\b`));
  if (m && Number(m[2]) <= 31) {
    const mo = monthIndex(m[1] as string);
    const d = Number(m[2]);
    const y = m[3] ? Number(m[3]) : yearFor(now, mo, d);
    return { start: utc(y, mo, d), end: utc(y, mo, d + 1) };
  }
  m = t.match(new RegExp(`\\b${MONTH},? (\\d{4})\\b`));
  if (m) {
    const mo = monthIndex(m[1] as string);
    const y = Number(m[2]);
    return { start: utc(y, mo, 1), end: utc(y, mo + 1, 1) };
  }
  m = t.match(new RegExp(`\\b(in|last|during|since|of|this) ${MONTH}\\b`));
  // "this may break", "all of may": the modal verb, not the month (a May with "in" or "last" still counts).
  if (m && !(m[2] === "may" && (m[1] === "this" || m[1] === "of"))) {
    const mo = monthIndex(m[2] as string);
    const y = yearFor(now, mo, 1);
    return { start: utc(y, mo, 1), end: utc(y, mo + 1, 1) };
  }
  if (/\byesterday\b/.test(t)) return { start: today - DAY, end: today };
  if (/\btoday\b|\btonight\b|\bthis morning\b/.test(t)) return { start: today, end: nowS + 1 };
  m = t.match(/\b(a|an|one|two|three|four|five|six|\d+) (day|week|month)s? ago\b/);
  if (m) {
    const n = NUM[m[1] as string] ?? Number(m[1]);
    const span = m[2] === "day" ? DAY : m[2] === "week" ? 7 * DAY : 30 * DAY;
    return { start: today - n * span - span, end: today - n * span + span };
  }
  if (/\blast week\b/.test(t)) return { start: today - 14 * DAY, end: today };
  if (/\blast month\b/.test(t)) {
    const y = now.getUTCFullYear();
    const mo = now.getUTCMonth();
    return { start: utc(y, mo - 1, 1), end: utc(y, mo, 1) };
  }
  if (/\bthis week\b/.test(t)) return { start: today - 7 * DAY, end: nowS + 1 };
  if (/\blast year\b/.test(t)) {
    const y = now.getUTCFullYear() - 1;
    return { start: utc(y, 0, 1), end: utc(y + 1, 0, 1) };
  }
  m = t.match(/\b(?:in|during|since) ((?:19|20)\d{2})\b/);
  if (m) {
    const y = Number(m[1]);
    return { start: utc(y, 0, 1), end: utc(y + 1, 0, 1) };
  }
  return null;
}
