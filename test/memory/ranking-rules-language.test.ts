import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryLanguage } from "../../src/memory/retrieve/language";
import { uniq } from "../support/env";
import { startTestSystem, type TestSystem } from "../support/system";

// The time focus and the time filter read English words (focus.ts, time-window.ts). A question in
// another language gets neither: read by English rules, "Wo hat Anna 2024 gewohnt?" names the
// year 2024 and the filter keeps only memories written then, which hides the answer written in
// January 2025; the formula alone finds it, as relevance alone does.

describe("queryLanguage", () => {
  it.each([
    ["Where does Alice live now?", "en"],
    ["What did Bob do last June?", "en"],
    ["alice party", "en"],
    ["Wo hat Anna 2024 gewohnt?", "other"],
    ["Was ist Annas Lieblingsessen?", "other"],
    ["Où habite Anna maintenant ?", "other"],
    ["¿Dónde vive Ana ahora?", "other"],
    ["アンナは2024年にどこに住んでいましたか？", "other"],
    ["Где сейчас живёт Анна?", "other"],
  ])("%s → %s", (q, want) => {
    expect(queryLanguage(q)).toBe(want);
  });
});

type Answer = {
  memories: { description: string }[];
  ranking: {
    focus: string;
    timeWindow: { start: string; end: string } | null;
    rules: { language: string; focus: boolean; timeFilter: boolean };
  };
};

const NOW = "2025-06-01T12:00:00.000Z";
const day = (iso: string) => new Date(`${iso}T10:00:00.000Z`).toISOString();

describe("ranking rules and the query's language", () => {
  let t: TestSystem;
  const agent = uniq("lang");
  const ask = async (query: string, body: object = {}) => {
    const res = await t.call("POST", `/v1/agents/${agent}/retrieve`, {
      query,
      now: NOW,
      k: 3,
      touch: false,
      ...body,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as Answer;
  };
  const GOLD_DE = "Im Jahr 2024 hat Anna in Hamburg gewohnt, am Hafen.";
  // Spaced into words: the stub embedder and the text search split on spaces (a real model reads Japanese whole).
  const GOLD_JA = "アンナ は 2024年 に 東京 に 住んで いました。";

  beforeAll(async () => {
    t = await startTestSystem();
    // Written in 2024: filler in both languages, so a 2024 window has candidates of its own.
    const filler = [
      "Der Zug nach Köln hatte heute Verspätung.",
      "Wir haben im Garten Tomaten gepflanzt.",
      "Das Konzert am Samstag war ausverkauft.",
      "今日は雨が降っていました。",
      "週末に友達と映画を見ました。",
    ];
    const memories = [
      ...filler.map((description, i) => ({
        description,
        createdAt: day(`2024-0${i + 3}-10`),
        importance: 5,
      })),
      // The answers, written after the year they are about.
      { description: GOLD_DE, createdAt: day("2025-01-12"), importance: 5 },
      { description: GOLD_JA, createdAt: day("2025-01-13"), importance: 5 },
    ];
    const res = await t.call("POST", `/v1/agents/${agent}/memories`, { memories });
    expect(res.status).toBe(201);
  }, 60_000);
  afterAll(() => t.close());

  it("reads a German or Japanese question by the formula alone, and says so", async () => {
    for (const [query, gold] of [
      ["Wo hat Anna 2024 gewohnt?", GOLD_DE],
      ["アンナ は 2024年 に どこ に 住んで いましたか？", GOLD_JA],
    ] as const) {
      const got = await ask(query);
      expect(got.ranking.rules).toEqual({
        language: "other",
        focus: false,
        timeFilter: false,
        subjects: false,
      });
      expect(got.ranking.focus).toBe("none");
      expect(got.ranking.timeWindow).toBeNull();
      // Nothing worse than relevance alone: what it finds in its top 3, the default finds too.
      const alone = await ask(query, { weights: { recency: 0, importance: 0, relevance: 1 } });
      expect(alone.memories.map((m) => m.description)).toContain(gold);
      expect(got.memories.map((m) => m.description)).toContain(gold);
    }
  });

  it("applies the rules to the English question, whose year limits the candidates", async () => {
    const got = await ask("Where did Anna live in 2024?");
    expect(got.ranking.rules).toEqual({ language: "en", focus: true, timeFilter: true, subjects: true });
    expect(got.ranking.focus).toBe("past");
    expect(got.ranking.timeWindow?.start.slice(0, 4)).toBe("2023");
    // The window is the year with a day's slack: the answers written in January 2025 are outside it.
    expect(got.memories.map((m) => m.description)).not.toContain(GOLD_DE);
  });
});
