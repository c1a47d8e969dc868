import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { liftSubjects, questionSubjects, SUBJECT_LIFT } from "../../src/memory/retrieve/ranking/subjects";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// A question naming someone is about what that one said or did (ranking/subjects.ts). Two
// memories with the same words rank by recency alone; the question's subject lifts the older one,
// whose description starts with the name, above the newer one, which only mentions it.

describe("questionSubjects", () => {
  it.each([
    ["What activities does Melanie partake in?", ["Melanie"]],
    ["Which cities have both Kate and Elise been to?", ["Kate", "Elise"]],
    ["What is Caroline's identity?", ["Caroline"]],
    ["Where did Nate go in May 2023?", ["Nate"]],
    ["Melanie went where?", []],
    ["what does the team use for builds?", []],
    ["Did I tell you about Monday?", []],
  ])("%s → %j", (q, want) => {
    expect(questionSubjects(q)).toEqual(want);
  });
});

describe("liftSubjects", () => {
  const rows = [
    { id: "a", description: "Caroline asked Melanie about pottery.", score: 0.9 },
    { id: "b", description: "Melanie's class starts at noon.", score: 0.87 },
    { id: "c", description: "Melanie said pottery calms her.", score: 0.8 },
    { id: "d", description: "Melanies are a kind of fruit.", score: 0.86 },
  ];
  it("adds the lift to memories starting with a name as a whole word, and re-orders", () => {
    const out = liftSubjects(rows, ["Melanie"], 0.05);
    expect(out.map((r) => [r.id, r.sSubject])).toEqual([
      ["b", 0.05],
      ["a", 0],
      ["d", 0],
      ["c", 0.05],
    ]);
    expect(out[0]?.score).toBeCloseTo(0.92, 12);
  });
  it("gives a version lifted to an older one's score the larger subject lift of the two", () => {
    const versions = [
      { id: "old", description: "Alice's favourite food is sushi", score: 0.9, sLift: 0 },
      { id: "new", description: "These days Alice prefers ramen", score: 0.9, sLift: 0.2 },
      { id: "filler", description: "Alice went hiking", score: 0.88, sLift: 0 },
      { id: "tie", description: "Bob went hiking", score: 0.88, sLift: 0 },
    ];
    const out = liftSubjects(versions, ["Alice"], 0.05);
    expect(out.map((r) => [r.id, r.sSubject])).toEqual([
      ["old", 0.05],
      ["new", 0.05],
      ["filler", 0.05],
      ["tie", 0],
    ]);
  });
  it("changes nothing without names", () => {
    expect(liftSubjects(rows, [], 0.05).map((r) => r.id)).toEqual(["a", "b", "c", "d"]);
  });
});

type Answer = {
  memories: { description: string; score: number; scores: { subject: number } }[];
  ranking: { subjects: boolean; rules: { subjects: boolean }; phases: { steps: string[] } };
};

describe("the subject lift in retrieve", () => {
  let t: TestSystem;
  const agent = uniq("subjects");
  const NOW = "2025-06-01T12:00:00.000Z";
  const NAMED = "Melanie went to the pottery class with Caroline.";
  const MENTIONS = "Caroline went to the pottery class with Melanie.";
  const ask = async (query: string, body: object = {}) => {
    const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
      query,
      now: NOW,
      k: 1,
      touch: false,
      ...body,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Answer;
  };

  beforeAll(async () => {
    t = await startTestSystem();
    const filler = ["The train was late today.", "We planted tomatoes.", "The concert sold out."];
    const memories = [
      // A year of filler, so one day's difference in recency is a small part of its scaled range.
      ...filler.map((description, i) => ({
        description,
        createdAt: `2024-0${i + 4}-10T10:00:00.000Z`,
        importance: 5,
      })),
      { description: NAMED, createdAt: "2025-05-30T10:00:00.000Z", importance: 5 },
      { description: MENTIONS, createdAt: "2025-05-31T10:00:00.000Z", importance: 5 },
    ];
    const res = await t.call("POST", `/v1/agents/${agent}/memories`, { memories });
    expect(res.status).toBe(201);
  }, 60_000);
  afterAll(() => t.close());

  it("the formula alone ranks the newer memory first", async () => {
    const off = await ask("Where did Melanie go to the pottery class?", { subjects: false });
    expect(off.memories[0]?.description).toBe(MENTIONS);
    expect(off.ranking.subjects).toBe(false);
    expect(off.ranking.phases.steps).not.toContain("subjects");
  });

  it("the default lifts the memory whose subject the question names", async () => {
    const on = await ask("Where did Melanie go to the pottery class?");
    expect(on.ranking.rules.subjects).toBe(true);
    expect(on.ranking.phases.steps).toContain("subjects");
    expect(on.memories[0]?.description).toBe(NAMED);
    expect(on.memories[0]?.scores.subject).toBeCloseTo(SUBJECT_LIFT, 12);
  });

  it("the other name lifts the other memory", async () => {
    const on = await ask("Where did Caroline go to the pottery class?");
    expect(on.memories[0]?.description).toBe(MENTIONS);
    expect(on.memories[0]?.scores.subject).toBeCloseTo(SUBJECT_LIFT, 12);
  });

  it("a question in another language reads no names", async () => {
    const de = await ask("Wohin ist Melanie mit der Töpferklasse gegangen?");
    expect(de.ranking.rules.subjects).toBe(false);
    expect(de.memories[0]?.scores.subject).toBe(0);
  });
});
