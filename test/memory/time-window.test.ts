import { describe, expect, it } from "vitest";
import { timeWindow } from "../../src/memory/retrieve/time-window";

const NOW = new Date("2026-07-01T12:00:00Z");
const iso = (w: { start: number; end: number } | null) =>
  w && [
    new Date(w.start * 1000).toISOString().slice(0, 10),
    new Date(w.end * 1000).toISOString().slice(0, 10),
  ];

describe("time expressions in a query → a createdAt window", () => {
  it("a day, with or without the year (then the last one not after now)", () => {
    expect(iso(timeWindow("What did Ana cook on 9 May, 2025?", NOW))).toEqual(["2025-05-09", "2025-05-10"]);
    expect(iso(timeWindow("what happened on May 9th 2025", NOW))).toEqual(["2025-05-09", "2025-05-10"]);
    expect(iso(timeWindow("the meeting on the 3rd of June", NOW))).toEqual(["2026-06-03", "2026-06-04"]);
    // 20 July has not come yet this year: last year's.
    expect(iso(timeWindow("What did we decide on July 20?", NOW))).toEqual(["2025-07-20", "2025-07-21"]);
  });

  it("a month, named with its year or relative ('last June', 'in March')", () => {
    expect(iso(timeWindow("Which car did Bo buy in December 2025?", NOW))).toEqual([
      "2025-12-01",
      "2026-01-01",
    ]);
    expect(iso(timeWindow("where did we go last June", NOW))).toEqual(["2026-06-01", "2026-07-01"]);
    expect(iso(timeWindow("what broke in March", NOW))).toEqual(["2026-03-01", "2026-04-01"]);
    expect(iso(timeWindow("What did I read in Sept 2024", NOW))).toEqual(["2024-09-01", "2024-10-01"]);
  });

  it("relative phrases and a bare year", () => {
    expect(iso(timeWindow("what did I eat yesterday?", NOW))).toEqual(["2026-06-30", "2026-07-01"]);
    expect(iso(timeWindow("bugs found last week", NOW))).toEqual(["2026-06-17", "2026-07-01"]);
    expect(iso(timeWindow("the deploy two weeks ago", NOW))).toEqual(["2026-06-10", "2026-06-24"]);
    expect(iso(timeWindow("what changed last month", NOW))).toEqual(["2026-06-01", "2026-07-01"]);
    expect(iso(timeWindow("who did we hire in 2024", NOW))).toEqual(["2024-01-01", "2025-01-01"]);
  });

  it("no window without a time expression (a month-like word alone, a number, 'may' as a verb)", () => {
    for (const q of [
      "Where does Alice live?",
      "May I see the CI logs?",
      "why did the build break",
      "the 2 of us",
      "what is 2024 minus 12",
    ]) {
      expect(timeWindow(q, NOW), q).toBeNull();
    }
  });
});
