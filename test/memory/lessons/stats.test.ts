import { describe, expect, it } from "vitest";
import {
  addOutcomes,
  emptyStats,
  lessonFacts,
  lessonImportance,
  templateWording,
} from "../../../src/memory/lessons/stats";
import type { OutcomeFields } from "../../../src/memory/lessons/types";

const o = (success: boolean, strategy: string | null, error: string | null = null): OutcomeFields => ({
  task: "Fix the flaky upload test",
  taskType: "fix-ci",
  success,
  strategy,
  error,
  durationMs: null,
});

describe("lesson facts and template wording", () => {
  it("a heuristic names the best strategy by the rule of succession, and what only failed", () => {
    const stats = addOutcomes(emptyStats(), [
      o(true, "retry with backoff"),
      o(false, "retry with backoff", "timeout"),
      o(true, "retry with backoff"),
      o(true, "retry with backoff"),
      o(false, "skip the test", "coverage dropped"),
      o(false, "skip the test", "coverage dropped"),
      o(true, "mock the network"),
    ]);
    const f = lessonFacts("fix-ci", "Fix the flaky upload test", stats);
    // retry: (3+1)/(4+2) = 0.67 beats mock: (1+1)/(1+2) = 0.67 on successes (tie broken by count).
    expect(f.works?.strategy).toBe("retry with backoff");
    expect(f.polarity).toBe("heuristic");
    expect(f.confidence).toBe(0.67);
    expect(lessonImportance(f.confidence)).toBe(8);
    expect(templateWording(f)).toBe(
      'Lesson for fix-ci tasks like "Fix the flaky upload test": retry with backoff works (3 of 4 attempts succeeded). Avoid skip the test: it failed 2 times with "coverage dropped".',
    );
    expect(stats).toMatchObject({ outcomes: 7, successes: 4 });
  });

  it("an anti-pattern when nothing succeeded; counts add up across revisions", () => {
    const first = addOutcomes(emptyStats(), [o(false, "rerun", "flaky"), o(false, "rerun", "flaky")]);
    const later = addOutcomes(first, [o(false, "rerun", "oom"), o(false, null)]);
    expect(first.strategies[0]).toMatchObject({ attempts: 2, failures: 2 });
    const f = lessonFacts(null, "Fix the flaky upload test", later);
    expect(f.polarity).toBe("anti-pattern");
    expect(f.confidence).toBe(0.8); // (3+1)/(3+2)
    expect(templateWording(f)).toBe(
      'Lesson for tasks like "Fix the flaky upload test": avoid rerun: it failed 3 times with "flaky". Avoid the approach taken: it failed once.',
    );
  });
});
