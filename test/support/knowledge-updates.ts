/**
 * Generated "knowledge update" cases: a fact, one or two newer facts that replace it, and a
 * question asked on July 1st among unrelated memories spread over the half year (some about the
 * same person). The oldest fact is phrased like the question, as it often is, so relevance alone
 * tends to prefer it.
 * - `current` questions ask for the present state ("Where does Alice live?"): the newest version
 *   must rank above every older one.
 * - `past` questions ask for an earlier state ("Where did Alice live before Berlin?"): the version
 *   asked for (the one before the value named) must be found, i.e. rank above every filler.
 * - `gap`: `months` (March → June, chains March → April → June) or `minutes` (the same June
 *   morning, minutes apart: a correction or a change told right away).
 */
export type Version = { text: string; at: string };

export type KnowledgeCase = {
  name: string;
  kind: "current" | "past";
  gap: "months" | "minutes";
  /** The versions of the fact, oldest first (2 or 3). */
  versions: Version[];
  /** Index in `versions` of the one the question asks for (the newest for `current`). */
  target: number;
  /** The oldest and the newest version (`versions[0]`, `versions.at(-1)`). */
  old: Version;
  new: Version;
  question: string;
  fillers: { text: string; at: string; importance: number }[];
};

export const KU_NOW = "2026-07-01T12:00:00.000Z";

const NAMES = ["Alice", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ivan", "Jade"];

type Fact = {
  /** The first version, phrased like the current-state question. */
  old: string;
  /** A later version (`{b}` the new value). */
  new: string;
  current: string[];
  /** Past-state questions: `{b}` is the value that replaced the one asked for. */
  past: string[];
  values: string[];
};

const FACTS: Fact[] = [
  {
    old: "{n} lives in {a}",
    new: "{n} moved to {b}",
    current: ["Where does {n} live?", "Where does {n} live now?"],
    past: ["Where did {n} live before moving to {b}?", "Which city did {n} live in before {b}?"],
    values: ["Paris", "Berlin", "Lisbon", "Oslo", "Seoul", "Lima"],
  },
  {
    old: "{n} works at {a}",
    new: "{n} started a new job at {b}",
    current: ["Where does {n} work?", "Where is {n} working these days?"],
    past: ["Where did {n} work before joining {b}?", "Which company did {n} work for before {b}?"],
    values: ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark"],
  },
  {
    old: "{n} drives a {a}",
    new: "{n} sold the old car and bought a {b}",
    current: ["What car does {n} drive?", "What does {n} drive currently?"],
    past: ["What car did {n} drive before the {b}?", "What car did {n} use to drive?"],
    values: ["Volvo", "Tesla", "Fiat", "Toyota", "Skoda", "Mazda"],
  },
  {
    old: "{n} is dating {a}",
    new: "{n} got engaged to {b}",
    current: ["Who is {n} dating?", "Who is {n} with now?"],
    past: ["Who was {n} dating before {b}?", "Who did {n} date previously?"],
    values: ["Sam", "Alex", "Robin", "Kim", "Jordan", "Max"],
  },
  {
    old: "{n}'s favourite food is {a}",
    new: "These days {n} prefers {b} to anything else",
    current: ["What is {n}'s favourite food?", "What is {n}'s favourite food at the moment?"],
    past: ["What was {n}'s favourite food before {b}?", "What did {n} use to like eating most?"],
    values: ["sushi", "pizza", "ramen", "tacos", "curry", "paella"],
  },
  {
    old: "{n} plays the {a} in a band",
    new: "{n} switched to playing the {b}",
    current: ["Which instrument does {n} play?", "Which instrument does {n} play these days?"],
    past: ["Which instrument did {n} play before the {b}?", "Which instrument did {n} play originally?"],
    values: ["guitar", "drums", "violin", "piano", "cello", "trumpet"],
  },
];

const FILLERS = [
  "{n} went hiking in the mountains",
  "{n} had a long call with an old friend",
  "The team shipped the quarterly report",
  "It rained all weekend",
  "The kitchen sink was leaking again",
  "We watched a documentary about whales",
  "The quarterly budget meeting ran late",
  "A new coffee machine arrived at the office",
  "The neighbours threw a loud party",
  "Someone left the printer out of paper",
];

// Facts at half past (or, minutes apart, at 10:30 + a few minutes), fillers on the hour: no two
// memories share a time, so the stream order (and with it contextual relevance) never depends on
// random ids.
const day = (month: number, d: number, minute = 0, hour = 9 + (d % 8)) =>
  new Date(Date.UTC(2026, month - 1, d, hour, minute)).toISOString();

/**
 * `count` deterministic cases: names × facts × value pairs, cycling through (current, past) ×
 * (months, minutes) × (two versions, three versions), so every 8 consecutive cases cover each
 * combination once. The first 60 of the old generator (current, months, two versions) are not
 * reproduced one for one: every kind is spread over the whole list instead.
 */
export function knowledgeUpdateCases(count: number): KnowledgeCase[] {
  const out: KnowledgeCase[] = [];
  for (let i = 0; out.length < count; i++) {
    const name = NAMES[i % NAMES.length] as string;
    const fact = FACTS[Math.floor(i / NAMES.length) % FACTS.length] as Fact;
    const kind = i % 2 === 0 ? "current" : "past";
    const gap = Math.floor(i / 2) % 2 === 0 ? "months" : "minutes";
    const chain = Math.floor(i / 4) % 2 === 1;
    const n = fact.values.length;
    const a = fact.values[i % n] as string;
    const b = fact.values[(i + 1 + (i % 3)) % n] as string;
    // A third value different from both.
    const c = [1, 2, 3, 4, 5]
      .map((s) => fact.values[(i + 1 + (i % 3) + s) % n] as string)
      .find((v) => v !== a) as string;
    const fill = (s: string, x: string, y: string) =>
      s.replaceAll("{n}", name).replaceAll("{a}", x).replaceAll("{b}", y);
    const values = chain ? [a, b, c] : [a, b];
    const times =
      gap === "months"
        ? chain
          ? [day(3, 1 + (i % 28), 30), day(4, 1 + ((i * 3) % 28), 30), day(6, 1 + ((i * 7) % 28), 30)]
          : [day(3, 1 + (i % 28), 30), day(6, 1 + ((i * 7) % 28), 30)]
        : values.map((_, v) => day(6, 1 + ((i * 7) % 28), 30 + ([0, 4, 11][v] as number), 10));
    const versions: Version[] = values.map((v, j) => ({
      text: j === 0 ? fill(fact.old, v, v) : fill(fact.new, v, v),
      at: times[j] as string,
    }));
    // A past question names the newest value and asks for the one before it.
    const target = kind === "current" ? versions.length - 1 : versions.length - 2;
    const templates = kind === "current" ? fact.current : fact.past;
    const question = fill(
      templates[Math.floor(i / 8) % templates.length] as string,
      a,
      values.at(-1) as string,
    );
    out.push({
      name,
      kind,
      gap,
      versions,
      target,
      old: versions[0] as Version,
      new: versions.at(-1) as Version,
      question,
      // Ten unrelated memories from January to the end of June.
      fillers: FILLERS.map((f, j) => ({
        text: fill(f, a, b),
        at: day(1 + (j % 6), 2 + ((i + 5 * j) % 26)),
        importance: 2 + ((i + j) % 6),
      })),
    });
  }
  return out;
}

/**
 * The 60 cases the previous default was chosen on (ADR 0014): current-state questions only, two
 * versions months apart (March → June), the first question template of each fact. Kept for
 * `test/memory/recency-matters.test.ts` until the default that answers every kind replaces it.
 */
export function firstKnowledgeUpdateCases(count: number): KnowledgeCase[] {
  const out: KnowledgeCase[] = [];
  for (let i = 0; out.length < count; i++) {
    const name = NAMES[i % NAMES.length] as string;
    const fact = FACTS[Math.floor(i / NAMES.length) % FACTS.length] as Fact;
    const a = fact.values[i % fact.values.length] as string;
    const b = fact.values[(i + 1 + (i % 3)) % fact.values.length] as string;
    const fill = (s: string) => s.replaceAll("{n}", name).replaceAll("{a}", a).replaceAll("{b}", b);
    const versions = [
      { text: fill(fact.old), at: day(3, 1 + (i % 28), 30) },
      { text: fill(fact.new), at: day(6, 1 + ((i * 7) % 28), 30) },
    ] as [Version, Version];
    out.push({
      name,
      kind: "current",
      gap: "months",
      versions,
      target: 1,
      old: versions[0],
      new: versions[1],
      question: fill(fact.current[0] as string),
      fillers: FILLERS.map((f, j) => ({
        text: fill(f),
        at: day(1 + (j % 6), 2 + ((i + 5 * j) % 26)),
        importance: 2 + ((i + j) % 6),
      })),
    });
  }
  return out;
}

/**
 * Whether a ranking (the memories' texts, best first) answers a case: `current` — the newest
 * version above every older one; `past` — the version asked for above every filler.
 */
export function passes(c: KnowledgeCase, order: string[]): boolean {
  const at = (text: string) => {
    const i = order.indexOf(text);
    return i < 0 ? Number.POSITIVE_INFINITY : i;
  };
  const target = at((c.versions[c.target] as Version).text);
  if (c.kind === "current") return c.versions.every((v, j) => j === c.target || at(v.text) > target);
  return c.fillers.every((f) => at(f.text) > target);
}

/** Every text of `cases` (versions and fillers) embedded once by `embedder`, by text. */
export async function vectorsOf(
  embedder: { embed: (texts: string[]) => Promise<number[][]> },
  cases: KnowledgeCase[],
): Promise<Map<string, number[]>> {
  const texts = [
    ...new Set(cases.flatMap((c) => [...c.versions.map((v) => v.text), ...c.fillers.map((f) => f.text)])),
  ];
  const embedded = await embedder.embed(texts);
  return new Map(texts.map((x, i) => [x, embedded[i] as number[]]));
}
