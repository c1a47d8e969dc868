import { describe, expect, it } from "vitest";
import { parseInsights, parseQuestions } from "../../../src/memory/reflect/parse.js";

describe("parseQuestions", () => {
  it("parses a numbered list and strips the numbering", () => {
    const text = "1. What does Klaus care about?\n2. Who is Maria to Klaus?\n3. Why is Klaus studying?";
    expect(parseQuestions(text)).toEqual([
      "What does Klaus care about?",
      "Who is Maria to Klaus?",
      "Why is Klaus studying?",
    ]);
  });

  it("parses bullets and ignores a preamble", () => {
    const text = "Here are the questions:\n\n- What is A?\n* What is B?\n• What is C?";
    expect(parseQuestions(text)).toEqual(["What is A?", "What is B?", "What is C?"]);
  });

  it("parses other numbering styles, bold and quotes", () => {
    const text = '1) **What is A?**\n(2) "What is B?"\nQ3: What is C?';
    expect(parseQuestions(text)).toEqual(["What is A?", "What is B?", "What is C?"]);
  });

  it("parses a JSON array, fenced or wrapped in an object", () => {
    expect(parseQuestions('["What is A?", "What is B?"]')).toEqual(["What is A?", "What is B?"]);
    expect(parseQuestions('```json\n{"questions": ["What is A?", "2. What is B?"]}\n```')).toEqual([
      "What is A?",
      "What is B?",
    ]);
    expect(parseQuestions('[{"question": "What is A?"}]')).toEqual(["What is A?"]);
  });

  it("parses plain lines without markers", () => {
    expect(parseQuestions("What is A?\nWhat is B?\n")).toEqual(["What is A?", "What is B?"]);
  });

  it("dedupes ignoring case, spacing and trailing punctuation, and caps at max", () => {
    const text = "1. What is A?\n2. what  is a\n3. What is B?\n4. What is C?\n5. What is D?";
    expect(parseQuestions(text)).toEqual(["What is A?", "What is B?", "What is C?"]);
    expect(parseQuestions(text, 2)).toEqual(["What is A?", "What is B?"]);
    expect(parseQuestions(text, 0)).toEqual([]);
  });

  it("returns [] for an empty answer", () => {
    expect(parseQuestions("")).toEqual([]);
    expect(parseQuestions("  \n\n ")).toEqual([]);
    expect(parseQuestions("[]")).toEqual([]);
  });
});

describe("parseInsights", () => {
  it("parses the paper's format, numbered or not", () => {
    const text = "1. Klaus is dedicated to research (because of 1, 5, 3)\nKlaus likes Maria (because of 2,4)";
    expect(parseInsights(text, 5)).toEqual([
      { insight: "Klaus is dedicated to research", cites: [1, 5, 3] },
      { insight: "Klaus likes Maria", cites: [2, 4] },
    ]);
  });

  it("accepts wording variants of the citation group", () => {
    const text = [
      "- A holds (because of statements 1 and 2).",
      "- B holds (based on 3, 4, and 5)",
      "- C holds [because 1]",
      "- D holds (2; 3)",
      "- E holds (because of 1 and 2 and 3)",
    ].join("\n");
    expect(parseInsights(text, 5, 10)).toEqual([
      { insight: "A holds", cites: [1, 2] },
      { insight: "B holds", cites: [3, 4, 5] },
      { insight: "C holds", cites: [1] },
      { insight: "D holds", cites: [2, 3] },
      { insight: "E holds", cites: [1, 2, 3] },
    ]);
  });

  it("keeps parentheses that are part of the insight", () => {
    expect(parseInsights("Caroline (the painter) is kind (because of 2)", 2)).toEqual([
      { insight: "Caroline (the painter) is kind", cites: [2] },
    ]);
  });

  it("parses JSON objects with several key spellings and JSON strings in line format", () => {
    const text =
      '```json\n[{"insight": "A", "because": [1, 2]}, {"text": "B", "citations": "2, 3"}, "C (because of 1)"]\n```';
    expect(parseInsights(text, 3)).toEqual([
      { insight: "A", cites: [1, 2] },
      { insight: "B", cites: [2, 3] },
      { insight: "C", cites: [1] },
    ]);
    expect(parseInsights('{"insights": [{"insight": "A", "because": ["1", 2]}]}', 3)).toEqual([
      { insight: "A", cites: [1, 2] },
    ]);
    expect(parseInsights('{"insight": "A", "because": [1]}', 3)).toEqual([{ insight: "A", cites: [1] }]);
  });

  it("drops invented citation numbers and keeps the valid ones", () => {
    expect(parseInsights("A (because of 0, 2, 7, 3, 2)", 3)).toEqual([{ insight: "A", cites: [2, 3] }]);
    expect(parseInsights('[{"insight": "A", "because": [1.5, -1, 3]}]', 3)).toEqual([
      { insight: "A", cites: [3] },
    ]);
  });

  it("rejects an insight whose citations are all invented", () => {
    const text = "A (because of 4, 9)\nB (because of 1)";
    expect(parseInsights(text, 3)).toEqual([{ insight: "B", cites: [1] }]);
  });

  it("rejects an insight with no citation at all", () => {
    expect(parseInsights("1. A\n2. B (because of 2)\n3. C ()", 3)).toEqual([{ insight: "B", cites: [2] }]);
    expect(parseInsights('[{"insight": "A"}, {"insight": "B", "because": []}]', 3)).toEqual([]);
  });

  it("rejects everything when there are no statements", () => {
    expect(parseInsights("A (because of 1)", 0)).toEqual([]);
  });

  it("ignores a preamble, dedupes identical insights and caps at max", () => {
    const text = [
      "Here are the insights:",
      "1. A (because of 1)",
      "2. a. (because of 2)",
      "3. B (because of 1)",
      "4. C (because of 1)",
      "5. D (because of 1)",
      "6. E (because of 1)",
      "7. F (because of 1)",
    ].join("\n");
    expect(parseInsights(text, 2).map((i) => i.insight)).toEqual(["A", "B", "C", "D", "E"]);
    expect(parseInsights(text, 2, 2).map((i) => i.insight)).toEqual(["A", "B"]);
  });

  it("returns [] for an empty or unusable answer", () => {
    expect(parseInsights("", 3)).toEqual([]);
    expect(parseInsights("I cannot infer anything.", 3)).toEqual([]);
  });
});

describe("parseQuestions with mixed shapes", () => {
  it("keeps unmarked question lines beside numbered ones", () => {
    expect(parseQuestions("Sure.\n1. What is A?\nWhat is B?")).toEqual(["What is A?", "What is B?"]);
  });
});
