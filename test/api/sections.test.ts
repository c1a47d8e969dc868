import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMemoryLine } from "../../src/memory/context/format";
import { createTokenCounter } from "../../src/memory/context/tokens";
import type { ScoredMemory } from "../../src/memory/types";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

const NOW = "2026-01-10T12:00:00.000Z";
const at = (h: number) => new Date(Date.parse(NOW) - h * 3_600_000).toISOString();
const count = createTokenCounter("o200k_base");

type SectionInfo = { title: string; kinds: string[] | null; count: number; truncated: boolean };
type Answer = {
  memories: ScoredMemory[];
  context?: { text?: string; tokens: number; truncated: boolean; sections?: SectionInfo[] };
};

let t: TestSystem;
let agent: string;
const BY_IMPORTANCE = { weights: { recency: 0, importance: 1, relevance: 0 } };

beforeAll(async () => {
  t = await startTestSystem();
  agent = uniq("sections");
  // Importance-only ranking makes each section's order known; descriptions vary in length.
  const items = [
    ...Array.from({ length: 4 }, (_, i) => ({ kind: "reflection", importance: 3 + 2 * i, words: 4 + i })),
    ...Array.from({ length: 8 }, (_, i) => ({
      kind: "observation",
      importance: 1 + i,
      words: 3 + ((i * 5) % 9),
    })),
    ...Array.from({ length: 3 }, (_, i) => ({ kind: "plan", importance: 2 + 3 * i, words: 5 })),
  ].map((m, i) => ({
    kind: m.kind,
    importance: m.importance,
    createdAt: at(i),
    description: `${m.kind} ${i}: ${"the nightly build broke on the shared runner again today".split(" ").slice(0, m.words).join(" ")}`,
  }));
  const res = await t.call("POST", `/v1/agents/${agent}/memories`, { memories: items });
  expect(res.status).toBe(201);
});
afterAll(() => t.close());

async function retrieve(body: object, status = 200): Promise<Answer> {
  const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
    now: NOW,
    touch: false,
    ...BY_IMPORTANCE,
    ...body,
  });
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as Answer;
}

/** The block as the README documents it, from the answer's memories and section headers. */
function expectedText(a: Answer): string {
  return (a.context?.sections ?? [])
    .map((s, i) => ({ s, lines: a.memories.filter((m) => m.section === i).map(formatMemoryLine) }))
    .filter((x) => x.lines.length > 0)
    .map((x) => [`${x.s.title}:`, ...x.lines].join("\n"))
    .join("\n\n");
}

const SECTIONS = [{ kinds: ["reflection"] }, { kinds: ["observation"], k: 3 }];

describe("retrieve with sections", () => {
  it("ranks each section's own top k, section by section, with scores of one candidate set", async () => {
    const a = await retrieve({ sections: SECTIONS, format: "text" });
    expect(a.memories.map((m) => [m.kind, m.importance, m.section])).toEqual([
      ["reflection", 9, 0],
      ["reflection", 7, 0],
      ["reflection", 5, 0],
      ["reflection", 3, 0],
      ["observation", 8, 1],
      ["observation", 7, 1],
      ["observation", 6, 1],
    ]);
    expect(a.context?.sections).toEqual([
      { title: "Reflections (most relevant first)", kinds: ["reflection"], count: 4, truncated: false },
      { title: "Observations (most relevant first)", kinds: ["observation"], count: 3, truncated: false },
    ]);
    expect(a.context?.text).toBe(expectedText(a));
    expect(a.context?.tokens).toBe(count(a.context?.text ?? ""));
    // Scores are those of one ranking over both kinds (same min-max bounds).
    const plain = await retrieve({ kinds: ["reflection", "observation"], k: 50 });
    const score = new Map(plain.memories.map((m) => [m.id, m.score]));
    for (const m of a.memories) expect(m.score).toBeCloseTo(score.get(m.id) as number, 12);
  });

  it("spends maxTokens on section 0 first, then what is left on the next, each a best-first prefix", async () => {
    const full = await retrieve({ sections: SECTIONS, format: "text" });
    const ranked = (i: number) => full.memories.filter((m) => m.section === i).map((m) => m.id);
    const seen = new Set<string>();
    const all = full.context?.tokens as number;
    for (const maxTokens of [1, 10, 30, 60, all - 1, all, 1000]) {
      const a = await retrieve({ sections: SECTIONS, format: "text", maxTokens });
      seen.add(JSON.stringify(a.context?.sections?.map((s) => [s.count > 0, s.truncated])));
      const text = a.context?.text ?? "";
      expect(a.context?.tokens).toBe(count(text));
      expect(a.context?.tokens).toBeLessThanOrEqual(maxTokens);
      expect(text).toBe(expectedText(a));
      for (const i of [0, 1]) {
        const got = a.memories.filter((m) => m.section === i).map((m) => m.id);
        expect(got).toEqual(ranked(i).slice(0, got.length));
        expect(a.context?.sections?.[i]?.truncated).toBe(got.length < ranked(i).length);
      }
      // Priority: the second section only gets memories once the first is complete or stopped.
      const first = a.context?.sections?.[0];
      if ((a.context?.sections?.[1]?.count ?? 0) > 0)
        expect(first?.count === 4 || first?.truncated).toBe(true);
    }
    // The budgets cover: nothing fits, section 0 cut, section 1 cut after a full section 0, all fit.
    expect(seen).toEqual(
      new Set(
        [
          [
            [false, true],
            [false, true],
          ],
          [
            [true, true],
            [false, true],
          ],
          [
            [true, false],
            [true, true],
          ],
          [
            [true, false],
            [true, false],
          ],
        ].map((x) => JSON.stringify(x)),
      ),
    );
  });

  it("a section without kinds takes every other kind; a memory appears once; titles can be given", async () => {
    const a = await retrieve({
      sections: [{ kinds: ["plan"], title: "Plans in force" }, {}],
      k: 50,
      format: "text",
    });
    const ids = a.memories.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(15);
    expect(a.memories.filter((m) => m.section === 0).every((m) => m.kind === "plan")).toBe(true);
    expect(a.memories.filter((m) => m.section === 1).some((m) => m.kind === "plan")).toBe(false);
    expect(a.context?.text?.startsWith("Plans in force:\n")).toBe(true);
    expect(a.context?.text).toContain("\n\nOther memories (most relevant first):\n");
  });

  it("rejects a kind in two sections, two catch-alls, kinds beside sections, mode fast, unknown kinds", async () => {
    for (const [body, field] of [
      [
        { sections: [{ kinds: ["reflection"] }, { kinds: ["observation", "reflection"] }] },
        "sections.1.kinds",
      ],
      [{ sections: [{}, { kinds: ["plan"] }, {}] }, "sections.2.kinds"],
      [{ sections: SECTIONS, kinds: ["plan"] }, "kinds"],
      [{ sections: SECTIONS, mode: "fast" }, "mode"],
      [{ sections: [{ kinds: ["lessonz"] }] }, "sections"],
      [{ sections: [] }, "sections"],
      [{ sections: [{ title: "two\nlines" }] }, "sections"],
    ] as const) {
      const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = (await res.json()) as { error: { message: string; details?: { field?: string } } };
      expect(`${err.error.details?.field} ${err.error.message}`).toContain(field);
    }
  });
});
