import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

// The weighted sum and the scaling are written in one module, src/memory/retrieve/ranking/
// (docs/adr/0023): every statement is generated from it. This fails when either is written
// anywhere else in src/, and checks that its patterns find them in the module itself.

const ROOT = new URL("../../", import.meta.url).pathname;
const MODULE = "src/memory/retrieve/ranking/";

const PATTERNS: [string, RegExp][] = [
  // `(x - lo) / (hi - lo)`, `/ (b.vhi - b.vlo)`, `/ (max(x) OVER () - …)`
  ["a min-max division", /\/\s*\(\s*\$?\{?[\w.]*(hi|max)\b/i],
  ["the equal-component rule", /ELSE 0\.5\b|\bEQUAL\b/],
  // `${w.recency}::float8 * …`, `w[c] * s`, `weights.relevance * x`, `… * w.importance`
  [
    "a weight times a component",
    /\b(w|weights)(\.(recency|importance|relevance)|\[\w+\])\}?(::float8)?\s*\*|\*\s*\$?\{?(w|weights)\.(recency|importance|relevance)\b/,
  ],
];

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );

describe("the ranking formula lives in one module", () => {
  const sources = files(join(ROOT, "src")).map((f) => ({
    path: relative(ROOT, f),
    text: readFileSync(f, "utf8"),
  }));

  it.each(PATTERNS)("%s appears only in ranking/", (_, pattern) => {
    const outside = sources
      .filter((s) => !s.path.startsWith(MODULE))
      .flatMap((s) =>
        s.text
          .split("\n")
          .flatMap((line, i) => (pattern.test(line) ? [`${s.path}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(outside).toEqual([]);
    // The pattern is not vacuous: it finds the module's own definition.
    expect(sources.some((s) => s.path.startsWith(MODULE) && pattern.test(s.text))).toBe(true);
  });
});
