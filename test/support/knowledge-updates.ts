/**
 * Generated "knowledge update" cases: a fact stated in March, a newer fact that replaces it in
 * June, a question on July 1st that both answer, among unrelated memories spread over the half
 * year (some about the same person). The newer fact should rank above the older one. The older
 * fact is phrased like the question, as it often is, so relevance alone tends to prefer it.
 */
export type KnowledgeCase = {
  name: string;
  old: { text: string; at: string };
  new: { text: string; at: string };
  question: string;
  fillers: { text: string; at: string; importance: number }[];
};

export const KU_NOW = "2026-07-01T12:00:00.000Z";

const NAMES = ["Alice", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ivan", "Jade"];

const FACTS: { old: string; new: string; question: string; values: string[] }[] = [
  {
    old: "{n} lives in {a}",
    new: "{n} moved to {b}",
    question: "Where does {n} live?",
    values: ["Paris", "Berlin", "Lisbon", "Oslo", "Seoul", "Lima"],
  },
  {
    old: "{n} works at {a}",
    new: "{n} started a new job at {b}",
    question: "Where does {n} work?",
    values: ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Stark"],
  },
  {
    old: "{n} drives a {a}",
    new: "{n} sold the old car and bought a {b}",
    question: "What car does {n} drive?",
    values: ["Volvo", "Tesla", "Fiat", "Toyota", "Skoda", "Mazda"],
  },
  {
    old: "{n} is dating {a}",
    new: "{n} got engaged to {b}",
    question: "Who is {n} dating?",
    values: ["Sam", "Alex", "Robin", "Kim", "Jordan", "Max"],
  },
  {
    old: "{n}'s favourite food is {a}",
    new: "These days {n} prefers {b} to anything else",
    question: "What is {n}'s favourite food?",
    values: ["sushi", "pizza", "ramen", "tacos", "curry", "paella"],
  },
  {
    old: "{n} plays the {a} in a band",
    new: "{n} switched to playing the {b}",
    question: "Which instrument does {n} play?",
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

// Facts at half past, fillers on the hour: no two memories share a time, so the stream order
// (and with it contextual relevance) never depends on random ids.
const day = (month: number, d: number, minute = 0) =>
  new Date(Date.UTC(2026, month - 1, d, 9 + (d % 8), minute)).toISOString();

/** `count` deterministic cases (names × facts × value pairs). */
export function knowledgeUpdateCases(count: number): KnowledgeCase[] {
  const out: KnowledgeCase[] = [];
  for (let i = 0; out.length < count; i++) {
    const name = NAMES[i % NAMES.length] as string;
    const fact = FACTS[Math.floor(i / NAMES.length) % FACTS.length] as (typeof FACTS)[number];
    const a = fact.values[i % fact.values.length] as string;
    const b = fact.values[(i + 1 + (i % 3)) % fact.values.length] as string;
    const fill = (s: string) => s.replaceAll("{n}", name).replaceAll("{a}", a).replaceAll("{b}", b);
    out.push({
      name,
      old: { text: fill(fact.old), at: day(3, 1 + (i % 28), 30) },
      new: { text: fill(fact.new), at: day(6, 1 + ((i * 7) % 28), 30) },
      question: fill(fact.question),
      // Ten unrelated memories from January to the end of June.
      fillers: FILLERS.map((f, j) => ({
        text: fill(f),
        at: day(1 + (j % 6), 2 + ((i + 5 * j) % 26)),
        importance: 2 + ((i + j) % 6),
      })),
    });
  }
  return out;
}
