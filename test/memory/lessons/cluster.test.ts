import { describe, expect, it } from "vitest";
import { cluster } from "../../../src/memory/lessons/cluster";
import { cosine } from "../../../src/memory/lessons/similarity";

// 2-d unit vectors at an angle: cosine between two points is cos(Δangle).
const at = (id: string, degrees: number) => ({
  id,
  vector: [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)],
});

describe("cluster", () => {
  it("groups similar outcomes and writes a lesson only from a group of minOutcomes", () => {
    // cos 30° = 0.87 (same task), cos 80° = 0.17 (another task).
    const plan = cluster([at("a", 0), at("b", 10), at("x", 80), at("c", 20)], [], {
      threshold: 0.65,
      minOutcomes: 3,
    });
    expect(plan.created).toEqual([["a", "b", "c"]]);
    expect(plan.waiting).toEqual(["x"]);
    expect(plan.joins.size).toBe(0);
  });

  it("joins an existing lesson by average similarity to its members, before forming new groups", () => {
    const lessons = [
      { lessonId: "L1", members: [at("a", 0), at("b", 10)] },
      { lessonId: "L2", members: [at("p", 90), at("q", 100)] },
    ];
    const plan = cluster([at("c", 5), at("r", 95), at("z", 45)], lessons, { threshold: 0.9, minOutcomes: 2 });
    expect(Object.fromEntries(plan.joins)).toEqual({ L1: ["c"], L2: ["r"] });
    // 45° is cos 0.71 from either lesson on average: below 0.9, so it waits alone.
    expect(plan.waiting).toEqual(["z"]);
    expect(plan.created).toEqual([]);
  });

  it("uses average linkage: a chain of near neighbours does not pull in a far outcome", () => {
    // Each step is 40° (cos 0.77 ≥ 0.7) but the ends are 80° apart; nearest-member linkage would chain them.
    const plan = cluster([at("a", 0), at("b", 40), at("c", 80)], [], { threshold: 0.7, minOutcomes: 2 });
    expect(plan.created).toEqual([["a", "b"]]);
    expect(plan.waiting).toEqual(["c"]);
  });

  it("cosine is 0 for mismatched or zero vectors", () => {
    expect(cosine([1, 0], [1, 0, 0])).toBe(0);
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(cosine([1, 1], [2, 2])).toBeCloseTo(1, 12);
  });
});
