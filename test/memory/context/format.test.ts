import { describe, expect, it } from "vitest";
import { CONTEXT_HEADER, formatContext, formatMemoryLine } from "../../../src/memory/context/format.js";
import { memory } from "../support/memories.js";

const observation = memory({
  id: "m1",
  createdAt: "2023-05-08T13:56:42.123Z",
  description: 'Caroline said, "I went to a support group\n yesterday."',
});
const reflection = memory({
  id: "m2",
  kind: "reflection",
  createdAt: "2023-05-09T10:00:00Z",
  description: "Caroline values community support",
  citations: ["m1", "m3", "m4"],
});
const plan = memory({
  id: "m3",
  kind: "plan",
  createdAt: "2023-05-09T23:30:00+02:00",
  description: "Paint at 9am",
});

describe("formatMemoryLine", () => {
  it("formats an observation with its UTC time and kind on one line", () => {
    expect(formatMemoryLine(observation)).toBe(
      '- [2023-05-08 13:56 UTC] (observation) Caroline said, "I went to a support group yesterday."',
    );
  });

  it("marks a reflection and says how many memories it cites", () => {
    expect(formatMemoryLine(reflection)).toBe(
      "- [2023-05-09 10:00 UTC] (reflection) ★ Caroline values community support [cites 3]",
    );
  });

  it("marks a superseded memory with when it stopped holding and what replaced it", () => {
    expect(
      formatMemoryLine({ ...plan, supersededBy: "mem_new", validUntil: "2023-05-10T08:15:00.000Z" }),
    ).toBe("- [2023-05-09 21:30 UTC] (plan) Paint at 9am [until 2023-05-10 08:15 UTC, replaced by mem_new]");
  });

  it("says how often a memory standing for folded duplicates was seen", () => {
    expect(formatMemoryLine({ ...plan, duplicates: 4 })).toBe(
      "- [2023-05-09 21:30 UTC] (plan) Paint at 9am [seen 5 times]",
    );
    expect(formatMemoryLine({ ...plan, duplicates: 0 })).toBe("- [2023-05-09 21:30 UTC] (plan) Paint at 9am");
  });

  it("says how many cited memories are gone since", () => {
    expect(formatMemoryLine({ ...reflection, missingCitations: ["m3"] })).toBe(
      "- [2023-05-09 10:00 UTC] (reflection) ★ Caroline values community support [cites 3, 1 gone]",
    );
  });

  it("converts offsets to UTC and formats plans", () => {
    expect(formatMemoryLine(plan)).toBe("- [2023-05-09 21:30 UTC] (plan) Paint at 9am");
  });

  it("shows an unparsable time as given rather than failing", () => {
    expect(formatMemoryLine(memory({ id: "x", createdAt: "yesterday", description: "d" }))).toBe(
      "- [yesterday] (observation) d",
    );
  });
});

describe("formatContext", () => {
  it("is the header then one line per memory, in the given order", () => {
    expect(formatContext([reflection, observation])).toBe(
      [
        "Relevant memories (most relevant first):",
        "- [2023-05-09 10:00 UTC] (reflection) ★ Caroline values community support [cites 3]",
        '- [2023-05-08 13:56 UTC] (observation) Caroline said, "I went to a support group yesterday."',
      ].join("\n"),
    );
    expect(CONTEXT_HEADER).toBe("Relevant memories (most relevant first):");
  });

  it("is empty for no memories", () => {
    expect(formatContext([])).toBe("");
  });
});
