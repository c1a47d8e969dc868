import { describe, expect, it } from "vitest";
import { liftOf, timeFocus } from "../../src/memory/retrieve/focus";

// A question's time focus decides whether the newer version of a fact is lifted (docs/adr/0026).
describe("a question's time focus", () => {
  it.each([
    ["Where does Alice live?", "present"],
    ["What car does Bruno drive currently?", "present"],
    ["Who is Dana with now?", "present"],
    ["What is Hana's favourite food at the moment?", "present"],
    ["Where did Alice live before moving to Berlin?", "past"],
    ["What car did Bruno use to drive?", "past"],
    ["Who did Dana date previously?", "past"],
    ["When is Melanie's daughter's birthday?", "past"],
    ["What did Melanie paint in July 2023?", "past"],
    ["Which instrument does Jade play in June?", "past"],
    ["Would Caroline pursue writing as a career option?", "none"],
    ["", "none"],
  ] as const)("%s → %s", (q, focus) => {
    expect(timeFocus(q)).toBe(focus);
  });

  it("lifts the newer version for a present-state question only", () => {
    expect(liftOf("present")).toBe("newer");
    expect(liftOf("past")).toBeUndefined();
    expect(liftOf("none")).toBeUndefined();
    expect(timeFocus(undefined)).toBe("none");
  });
});
