import TurndownService from "turndown";
import { checkHtml } from "./bounds";

/**
 * HTML → Markdown with turndown (a DOM parser underneath, never regexes), so the heading
 * structure survives and one splitter serves both formats. What an agent would not read is
 * dropped: scripts, styles, page chrome, images; links keep their text, not their URL (URLs cost
 * tokens and say little in a memory).
 */
const turndown = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
  emDelimiter: "*",
});
turndown.remove(["script", "style", "noscript", "template", "iframe", "head", "title", "nav", "svg"]);
turndown.addRule("link-text", { filter: "a", replacement: (content) => content });
turndown.addRule("no-images", { filter: "img", replacement: () => "" });

/** Converts an HTML document or fragment to Markdown; `Invalid` past the bounds of `checkHtml`. */
export function htmlToMarkdown(html: string): string {
  checkHtml(html);
  return turndown.turndown(html);
}
