import { describe, expect, it } from "vitest";
import { DomainError } from "../../../src/lib/errors";
import { checkHtml, checkMarkdown } from "../../../src/memory/documents/bounds";
import { LIMITS } from "../../../src/memory/limits";

const refusal = (f: () => void) => {
  try {
    f();
    return null;
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return (err as DomainError).details;
  }
};

describe("document bounds (src/memory/documents/bounds.ts)", () => {
  it("refuses HTML nested past htmlDepth, naming the limit, and counts depth as a browser builds it", () => {
    const d = LIMITS.htmlDepth;
    expect(refusal(() => checkHtml("<div>".repeat(d + 1)))).toEqual({ field: "content", limit: d });
    expect(refusal(() => checkHtml(`${"<ul><li>".repeat(d)}x`))).toMatchObject({ limit: d });
    expect(refusal(() => checkHtml(`${"<div>".repeat(d)}x${"</div>".repeat(d)}`))).toBeNull();
    // Siblings close each other, void and self-closing elements do not nest, end tags close up to their element.
    expect(refusal(() => checkHtml(`<ul>${"<li>item ".repeat(5 * d)}</ul>`))).toBeNull();
    expect(refusal(() => checkHtml(`${"<p>para ".repeat(5 * d)}`))).toBeNull();
    expect(refusal(() => checkHtml(`<table>${"<tr><td>a<td>b".repeat(5 * d)}</table>`))).toBeNull();
    expect(refusal(() => checkHtml(`${"<br><img src=x><span/>".repeat(5 * d)}`))).toBeNull();
    expect(
      refusal(() => checkHtml(`${"<div><b>x</b>".repeat(d - 1)}${"</div>".repeat(d - 1)}`.repeat(3))),
    ).toBeNull();
    // Script text is not markup; comments neither.
    expect(
      refusal(() => checkHtml(`<script>${"<div>".repeat(2 * d)}</script><!-- ${"<div>".repeat(2 * d)} -->`)),
    ).toBeNull();
  });

  it("refuses more than htmlElements elements", () => {
    const many = "<b>x</b>".repeat(LIMITS.htmlElements + 1);
    expect(refusal(() => checkHtml(many))).toEqual({ field: "content", limit: LIMITS.htmlElements });
    expect(refusal(() => checkMarkdown(many))).toEqual({ field: "content", limit: LIMITS.htmlElements });
  });

  it("refuses a Markdown line nesting quotes or lists past markdownDepth; rulers and text pass", () => {
    const d = LIMITS.markdownDepth;
    expect(refusal(() => checkMarkdown(`${">".repeat(d + 1)} x`))).toEqual({ field: "content", limit: d });
    expect(refusal(() => checkMarkdown(`${"1. ".repeat(d + 1)}x`))).toMatchObject({ limit: d });
    expect(refusal(() => checkMarkdown(`${"- > ".repeat(d)}x`))).toMatchObject({ limit: d });
    expect(refusal(() => checkMarkdown(`${">".repeat(d)} x\n${">".repeat(d)} y`))).toBeNull();
    expect(refusal(() => checkMarkdown(`${"- ".repeat(3 * d)}\n${"* ".repeat(3 * d)}`))).toBeNull();
    expect(refusal(() => checkMarkdown(`a ${"> ".repeat(3 * d)} and 1. 2. 3. inside a line`))).toBeNull();
    expect(refusal(() => checkMarkdown(`${"#".repeat(100_000)}\n${"[".repeat(100_000)}`))).toBeNull();
  });
});
