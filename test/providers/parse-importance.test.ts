import { describe, expect, it } from "vitest";
import { parseImportance } from "../../src/providers/importance/parse.js";

describe("parseImportance", () => {
  it.each([
    ["7", 7],
    ["Rating: 7", 7],
    ["7/10", 7],
    ["**8**", 8],
    ["I'd rate it 6 out of 10.", 6],
    ["10", 10],
    ["Rating: 10/10", 10],
    ["1", 1],
    ["**Rating:** 9", 9],
    ["Rating:\n4", 4],
    ["On a scale of 1 to 10, I would give this a 3.", 3],
    ["The memory mentions 3 cats. Rating: 5", 5],
    ["Rating: <fill in>\nRating: 6", 6],
    ["In 2024 this would be a 7", 7],
    ["7.5", 8],
    ["6.4", 6],
    ["Rating: 9.5", 10],
  ])("%j → %i", (text, expected) => {
    expect(parseImportance(text)).toBe(expected);
  });

  it.each([
    ["very important!"],
    [""],
    ["11"],
    ["0"],
    ["10.6"],
    ["Rating: 11"],
    ["Rating: 0, though 5 would also do"],
    ["seven"],
  ])("%j → null", (text) => {
    expect(parseImportance(text)).toBeNull();
  });
});
