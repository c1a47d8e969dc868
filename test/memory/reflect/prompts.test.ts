import { describe, expect, it } from "vitest";
import {
  fill,
  numberStatements,
  PROMPT_VERSION,
  renderInsightsPrompt,
  renderQuestionsPrompt,
} from "../../../src/memory/reflect/prompts/index.js";

describe("reflection prompts", () => {
  it("has a version", () => {
    expect(PROMPT_VERSION).toBe("v1");
  });

  it("numbers statements 1..N, one line each", () => {
    expect(numberStatements(["a", "b\n  c", " d "])).toBe("1. a\n2. b c\n3. d");
  });

  it("renders the questions prompt with numbered statements and the paper's question", () => {
    const [msg, ...rest] = renderQuestionsPrompt(["Klaus is reading", "Klaus talks to Maria"]);
    expect(rest).toEqual([]);
    expect(msg?.role).toBe("user");
    expect(msg?.content.startsWith("1. Klaus is reading\n2. Klaus talks to Maria\n\n")).toBe(true);
    expect(msg?.content).toContain(
      "Given only the information above, what are 3 most salient high-level questions we can answer about the subjects in the statements?",
    );
    expect(msg?.content).not.toContain("{{");
  });

  it("renders the insights prompt with the question, numbered statements and the example format", () => {
    const [msg] = renderInsightsPrompt("What is Klaus passionate about?", ["s1", "s2", "s3"], 4);
    expect(msg?.content).toContain("Statements:\n1. s1\n2. s2\n3. s3\n");
    expect(msg?.content).toContain("What is Klaus passionate about?");
    expect(msg?.content).toContain(
      "What 4 high-level insights can you infer from the above statements? (example format: insight (because of 1, 5, 3))",
    );
    expect(msg?.content).not.toContain("{{");
  });

  it("does not substitute placeholders that appear inside statements", () => {
    const [msg] = renderQuestionsPrompt(["she wrote {{count}} on the board"]);
    expect(msg?.content).toContain("1. she wrote {{count}} on the board");
  });

  it("fails loudly on a placeholder without a value", () => {
    expect(() => fill("{{missing}}", {})).toThrow(/missing/);
  });
});
