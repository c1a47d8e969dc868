import { describe, expect, it } from "vitest";
import { defaultTitle, fitSections, formatSections } from "../../../src/memory/context/sections";
import { createTokenCounter } from "../../../src/memory/context/tokens";
import { memory } from "../support/memories";

const count = createTokenCounter("o200k_base");
const lesson = memory({
  id: "l1",
  kind: "reflection",
  description: "for flaky CI, retry the job once",
  citations: ["o1"],
});
const long = memory({ id: "o1", description: "a very long observation ".repeat(20) });
const short = memory({ id: "o2", description: "short one" });

describe("defaultTitle", () => {
  it("names the kinds in words, lessons and outcomes included", () => {
    expect(defaultTitle(["lesson"])).toBe("Lessons (most relevant first)");
    expect(defaultTitle(["observation", "document"])).toBe(
      "Observations and document sections (most relevant first)",
    );
    expect(defaultTitle(["outcome", "plan", "reflection"])).toBe(
      "Outcomes, plans and reflections (most relevant first)",
    );
    expect(defaultTitle(null)).toBe("Other memories (most relevant first)");
  });
});

describe("formatSections", () => {
  it("a header per non-empty section, sections apart by a blank line, '' when all are empty", () => {
    const text = formatSections([
      { title: "A", memories: [lesson] },
      { title: "Empty", memories: [] },
      { title: "B", memories: [short] },
    ]);
    expect(text.split("\n")).toEqual([
      "A:",
      expect.stringContaining("(reflection) ★"),
      "",
      "B:",
      expect.stringContaining("short one"),
    ]);
    expect(formatSections([{ title: "A", memories: [] }])).toBe("");
  });
});

describe("fitSections", () => {
  it("fills in section order; a later section may use what an earlier one's first miss left", () => {
    const ranked = [
      { title: "Lessons", memories: [lesson] },
      { title: "Observations", memories: [long, short] },
    ];
    const budget = count(
      formatSections([
        { title: "Lessons", memories: [lesson] },
        { title: "Observations", memories: [short] },
      ]),
    );
    const fit = fitSections(ranked, budget, count);
    // The long observation does not fit, so the section stops there (best-first prefix: nothing).
    expect(fit.sections.map((s) => s.memories.map((m) => m.id))).toEqual([["l1"], []]);
    expect(fit.truncated).toEqual([false, true]);
    expect(fit.tokens).toBe(count(formatSections(fit.sections)));
    // Section 0 stopped at its first (long) memory; section 1's short one still fits what is left.
    const small = count(formatSections([{ title: "B", memories: [short] }]));
    const later = fitSections(
      [
        { title: "A", memories: [long] },
        { title: "B", memories: [short] },
      ],
      small,
      count,
    );
    expect(later.sections.map((s) => s.memories.map((m) => m.id))).toEqual([[], ["o2"]]);
    expect(later.truncated).toEqual([true, false]);
    // With room for everything nothing is cut; with none, nothing is returned.
    expect(fitSections(ranked, 100_000, count).truncated).toEqual([false, false]);
    expect(fitSections(ranked, 0, count)).toMatchObject({ tokens: 0, truncated: [true, true] });
  });

  it("rejects a negative or fractional budget", () => {
    expect(() => fitSections([], -1, count)).toThrow(/maxTokens/);
    expect(() => fitSections([], 1.5, count)).toThrow(/maxTokens/);
  });
});
