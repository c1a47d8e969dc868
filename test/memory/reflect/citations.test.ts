import { describe, expect, it } from "vitest";
import { mapCitations } from "../../../src/memory/reflect/citations.js";

describe("mapCitations", () => {
  const ids = ["m-a", "m-b", "m-c"];

  it("maps 1-based statement numbers to memory ids in citation order", () => {
    expect(mapCitations([{ insight: "X", cites: [3, 1] }], ids)).toEqual([
      { description: "X", citations: ["m-c", "m-a"] },
    ]);
  });

  it("dedupes ids, including distinct numbers that name the same memory", () => {
    expect(mapCitations([{ insight: "X", cites: [1, 1, 2, 3] }], ["m-a", "m-a", "m-b"])).toEqual([
      { description: "X", citations: ["m-a", "m-b"] },
    ]);
  });

  it("drops numbers without a statement and insights left with no citation", () => {
    const out = mapCitations(
      [
        { insight: "kept", cites: [0, 2, 4] },
        { insight: "dropped", cites: [4, -1, 1.5] },
        { insight: "none", cites: [] },
      ],
      ids,
    );
    expect(out).toEqual([{ description: "kept", citations: ["m-b"] }]);
  });
});
