/**
 * Document → sections of bounded tokens, split by headings.
 *
 * Markdown is parsed with `marked` (so a `#` inside a code fence is not a heading); HTML is first
 * turned into Markdown (html-to-markdown.ts); plain text has no headings. Each heading opens a
 * section whose heading path is the chain of enclosing headings; a section too long for the budget
 * is cut at paragraph, then line, then sentence, then word boundaries (a single unbroken run is cut
 * mid-word as a last resort). Every description starts with its label (document title › headings),
 * so a section retrieved alone still says where it comes from, and the label counts against the
 * budget: `count(description) <= maxTokens` always holds.
 *
 * Runs of over 100 letters or symbols with no break (base64, minified code, "=====" rulers) get a
 * space every 100 characters first: the tokenizer's merge is quadratic in such a run (js-tiktoken
 * takes seconds on a few thousand random letters), which would let one request pin a CPU.
 */
import { Lexer, type Token, type Tokens } from "marked";
import type { TokenCounter } from "../context/tokens";
import { checkMarkdown } from "./bounds";
import { htmlToMarkdown } from "./html-to-markdown";

export const DOCUMENT_FORMATS = ["markdown", "html", "text"] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

export type Section = {
  /** Label line, a blank line, then the section's text. */
  description: string;
  /** Enclosing headings, outermost first (empty before the first heading and for plain text). */
  headingPath: string[];
  tokens: number;
};

export type SplitOptions = {
  format: DocumentFormat;
  maxTokens: number;
  /** Characters per description (the memory limit). */
  maxChars: number;
  count: TokenCounter;
  /** The document's title; default: its first level-1 heading. */
  title?: string;
};

const MAX_HEADING = 200;
const SEPARATOR = " › ";

type Block = { headingPath: string[]; body: string[] };

/** Splits a document into sections (in document order) and names its title. */
export function splitDocument(
  content: string,
  opts: SplitOptions,
): { title: string | null; sections: Section[] } {
  const blocks =
    opts.format === "text"
      ? [{ headingPath: [], body: [content] }]
      : headingBlocks(markdownOf(content, opts.format));
  const title = opts.title ?? blocks.find((b) => b.headingPath.length > 0)?.headingPath[0] ?? null;
  const sections: Section[] = [];
  for (const block of blocks) {
    const body = breakRuns(block.body.join("\n\n")).trim();
    if (body === "") continue;
    const path =
      title !== null && block.headingPath[0] === title
        ? block.headingPath
        : compact([title, ...block.headingPath]);
    const label = labelWithin(path.join(SEPARATOR), opts);
    const prefix = label === "" ? "" : `${label}\n\n`;
    const fits = (text: string) =>
      prefix.length + text.length <= opts.maxChars && opts.count(prefix + text) <= opts.maxTokens;
    for (const chunk of pack(body, fits, SPLITS)) {
      const description = prefix + chunk;
      sections.push({ description, headingPath: block.headingPath, tokens: opts.count(description) });
    }
  }
  return { title, sections };
}

/**
 * The document's block tokens. Only blocks: sections keep their Markdown as written, so inline
 * parsing (emphasis, links) is never needed but for headings' text, and it is where marked is
 * quadratic (a paragraph of `*a` × 200k took 41 s). Headings get theirs from a bounded prefix.
 */
function markdownOf(content: string, format: "markdown" | "html"): Token[] {
  const markdown = format === "html" ? htmlToMarkdown(content) : content;
  checkMarkdown(markdown);
  const lexer = new Lexer();
  return lexer.blockTokens(markdown.replace(/\r\n|\r/g, "\n"), []);
}

/** A heading's text without its Markdown, from at most a few times what a heading keeps. */
const headingText = (h: Tokens.Heading) => plain(Lexer.lexInline(h.text.slice(0, MAX_HEADING * 4)));

/** Groups top-level tokens under the heading that precedes them. */
function headingBlocks(tokens: Token[]): Block[] {
  const stack: { depth: number; text: string }[] = [];
  const blocks: Block[] = [{ headingPath: [], body: [] }];
  for (const token of tokens) {
    if (token.type === "heading") {
      const h = token as Tokens.Heading;
      while ((stack.at(-1)?.depth ?? 0) >= h.depth) stack.pop();
      stack.push({ depth: h.depth, text: clipHeading(breakRuns(headingText(h))) });
      blocks.push({ headingPath: stack.map((s) => s.text), body: [] });
    } else if (token.type === "html") {
      // Raw HTML inside Markdown (badges, details blocks): its text, never its tags.
      (blocks.at(-1) as Block).body.push(htmlToMarkdown(token.raw));
    } else if (token.type !== "space" && token.type !== "hr") {
      (blocks.at(-1) as Block).body.push(token.raw.trim());
    }
  }
  return blocks;
}

const LONG_RUN = /[\p{L}\p{M}]{101,}|[^\s\p{L}\p{N}]{101,}/gu;

/** A space every 100 characters of an unbroken run of letters or of symbols (see above). */
export function breakRuns(text: string): string {
  return text.replace(LONG_RUN, (run) => (run.match(/.{1,100}/gsu) ?? [run]).join(" "));
}

/** The text of inline tokens without their Markdown (`**x**` → `x`). */
function plain(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((t) => ("tokens" in t && t.tokens ? plain(t.tokens) : "text" in t ? String(t.text) : ""))
    .join("");
}

function clipHeading(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= MAX_HEADING ? flat : `${flat.slice(0, MAX_HEADING - 1)}…`;
}

const compact = (xs: (string | null)[]) => xs.filter((x): x is string => !!x);

/** The label, cut so that it leaves at least half of the budget to the text. */
function labelWithin(label: string, opts: SplitOptions): string {
  let out = label;
  while (out !== "" && (opts.count(out) > opts.maxTokens / 2 || out.length > opts.maxChars / 2)) {
    out = out.slice(0, Math.floor(out.length * 0.8));
  }
  return out;
}

/** Boundaries to cut at, coarsest first; each keeps its separator at the end of the part. */
const SPLITS = [/(?<=\n\n)/, /(?<=\n)/, /(?<=[.!?]\s)/, /(?<=\s)/];

/**
 * Greedy packing of the text's parts into chunks that fit, cutting at finer boundaries as needed.
 * Each chunk takes the most parts that fit together, found by galloping and then bisecting on the
 * number of parts (fitting only grows harder as parts are added), so a chunk costs a logarithmic
 * number of counts rather than one per part: adding part by part recounted the growing chunk
 * each time, quadratic in a chunk of many short parts (100k `#` took minutes).
 */
function pack(text: string, fits: (t: string) => boolean, splits: RegExp[]): string[] {
  const whole = text.trim();
  if (whole === "") return [];
  if (fits(whole)) return [whole];
  const [split, ...finer] = splits;
  if (!split) return hardCut(whole, fits);
  const parts = whole.split(split);
  if (parts.length === 1) return pack(whole, fits, finer);
  const out: string[] = [];
  let i = 0;
  while (i < parts.length) {
    const take = longest(parts.length - i, (k) =>
      fits(
        parts
          .slice(i, i + k)
          .join("")
          .trim(),
      ),
    );
    if (take === 0) {
      out.push(...pack(parts[i] as string, fits, finer));
      i++;
      continue;
    }
    const chunk = parts
      .slice(i, i + take)
      .join("")
      .trim();
    if (chunk !== "") out.push(chunk);
    i += take;
  }
  return out;
}

/** The largest k in 0..max with `ok(k)` (ok is true up to some k, then false), from `first` up. */
function longest(max: number, ok: (k: number) => boolean, first = 1): number {
  let good = 0;
  let bad = max + 1;
  for (let k = Math.min(first, max); k < bad; k = Math.min(k * 2, max)) {
    if (!ok(k)) {
      bad = k;
      break;
    }
    good = k;
    if (k === max) return max;
  }
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    if (ok(mid)) good = mid;
    else bad = mid;
  }
  return good;
}

/** Last resort for a run with no whitespace: the longest prefixes that fit (never splitting a surrogate pair). */
function hardCut(text: string, fits: (t: string) => boolean): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest !== "") {
    // Galloping from a short prefix: each count stays near the chunk's own size.
    let cut = Math.max(
      1,
      longest(rest.length, (k) => fits(rest.slice(0, k)), 64),
    );
    const code = rest.charCodeAt(cut);
    if (cut < rest.length && code >= 0xdc00 && code <= 0xdfff && cut > 1) cut--;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return out;
}
