import { describe, expect, it } from "vitest";
import { createTokenCounter } from "../../../src/memory/context/tokens";
import { type SplitOptions, splitDocument } from "../../../src/memory/documents/split";

const count = createTokenCounter();
const opts = (o: Partial<SplitOptions> = {}): SplitOptions => ({
  format: "markdown",
  maxTokens: 512,
  maxChars: 8000,
  count,
  ...o,
});
/** The words of a text, for "nothing lost, nothing reordered" checks. */
const words = (s: string) => s.split(/\s+/).filter(Boolean);

const GUIDE = `# Hono Guide

Hono is a small web framework.

## Install

Run the installer.

\`\`\`sh
# this comment is not a heading
npm install hono
\`\`\`

### On Linux

Use your package manager.

## Routing

Routes map paths to handlers.
`;

describe("splitDocument (markdown)", () => {
  it("splits by headings with heading paths, labels each section, ignores # inside code", () => {
    const { title, sections } = splitDocument(GUIDE, opts());
    expect(title).toBe("Hono Guide");
    expect(sections.map((s) => s.headingPath)).toEqual([
      ["Hono Guide"],
      ["Hono Guide", "Install"],
      ["Hono Guide", "Install", "On Linux"],
      ["Hono Guide", "Routing"],
    ]);
    expect(sections[1]?.description).toBe(
      "Hono Guide › Install\n\nRun the installer.\n\n```sh\n# this comment is not a heading\nnpm install hono\n```",
    );
    expect(sections[3]?.description).toBe("Hono Guide › Routing\n\nRoutes map paths to handlers.");
    for (const s of sections) expect(s.tokens).toBe(count(s.description));
  });

  it("cuts a long section into chunks within the token budget, losing and reordering nothing", () => {
    const paragraphs = Array.from(
      { length: 40 },
      (_, p) => `Paragraph ${p} says ${Array.from({ length: 30 }, (_, w) => `word${p}x${w}`).join(" ")}.`,
    );
    const doc = `# Big\n\n## Part\n\n${paragraphs.join("\n\n")}`;
    const { sections } = splitDocument(doc, opts({ maxTokens: 120 }));
    expect(sections.length).toBeGreaterThan(5);
    const label = "Big › Part\n\n";
    for (const s of sections) {
      expect(count(s.description)).toBeLessThanOrEqual(120);
      expect(s.description.startsWith(label)).toBe(true);
      expect(s.headingPath).toEqual(["Big", "Part"]);
    }
    const body = sections.flatMap((s) => words(s.description.slice(label.length)));
    expect(body).toEqual(words(paragraphs.join(" ")));
  });

  it("breaks an unbroken run (base64, minified code) every 100 characters, then packs it within budget", () => {
    const run = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(97 + ((i * 7) % 26))).join("");
    const { sections } = splitDocument(run, opts({ format: "text", maxTokens: 64, title: "Blob" }));
    expect(sections.length).toBeGreaterThan(1);
    for (const s of sections) expect(count(s.description)).toBeLessThanOrEqual(64);
    const kept = sections.map((s) => s.description.replace("Blob\n\n", "")).join(" ");
    expect(kept.split(" ").every((piece) => piece.length <= 100)).toBe(true);
    expect(kept.replaceAll(" ", "")).toBe(run);
  });

  it("cuts mid-word as a last resort, when even one piece exceeds the budget", () => {
    const { sections } = splitDocument("支".repeat(90), opts({ format: "text", maxTokens: 64, title: "T" }));
    expect(sections.length).toBeGreaterThan(1);
    for (const s of sections) expect(count(s.description)).toBeLessThanOrEqual(64);
    expect(sections.map((s) => s.description.replace("T\n\n", "")).join("")).toBe("支".repeat(90));
  });

  it("respects the character limit even when tokens would allow more", () => {
    const { sections } = splitDocument(
      "word ".repeat(3000),
      opts({ format: "text", maxTokens: 2000, maxChars: 1000 }),
    );
    for (const s of sections) expect(s.description.length).toBeLessThanOrEqual(1000);
  });

  it("keeps text before the first heading, labelled with the title", () => {
    const { sections } = splitDocument("Preface text.\n\n# Chapter\n\nBody.", opts({ title: "Book" }));
    expect(sections.map((s) => [s.headingPath, s.description])).toEqual([
      [[], "Book\n\nPreface text."],
      [["Chapter"], "Book › Chapter\n\nBody."],
    ]);
  });
});

describe("splitDocument (html, text)", () => {
  it("reads HTML through a DOM: headings become sections; scripts, styles and URLs are dropped", () => {
    const html = `<!doctype html><html><head><title>T</title><style>p { color: red }</style></head><body>
      <h1>API <code>v2</code></h1><p>See <a href="https://example.com/x">the reference</a>.</p>
      <script>alert("no")</script>
      <h2>Errors</h2><p>Errors use one envelope &amp; a code.</p><pre><code># shell comment
curl -s x</code></pre></body></html>`;
    const { title, sections } = splitDocument(html, opts({ format: "html" }));
    expect(title).toBe("API v2");
    expect(sections.map((s) => s.headingPath)).toEqual([["API v2"], ["API v2", "Errors"]]);
    expect(sections[0]?.description).toBe("API v2\n\nSee the reference.");
    expect(sections[1]?.description).toContain("Errors use one envelope & a code.");
    expect(sections[1]?.description).toContain("# shell comment");
    const all = sections.map((s) => s.description).join("\n");
    expect(all).not.toMatch(/alert|color: red|example\.com|<\w+/);
  });

  it("treats plain text as one headingless block", () => {
    const { title, sections } = splitDocument("# not a heading\n\nplain", opts({ format: "text" }));
    expect(title).toBeNull();
    expect(sections).toEqual([
      { description: "# not a heading\n\nplain", headingPath: [], tokens: count("# not a heading\n\nplain") },
    ]);
  });
});
