/**
 * Input bounds of document conversion, checked by one linear scan before any parser runs, so the
 * parsers' cost stays linear and small. The parsers recurse per nesting level and slow
 * steeply with it: turndown took 67 s on `<ul><li>` × 2,000 and overflowed its stack; marked
 * overflows on 100k `>` (nested blockquotes) or `1. ` × 4,000 (nested lists). What real documents
 * nest is far below the bounds (HTML pages ~30 levels, Markdown a handful); each is a 400 naming it.
 */
import { Invalid } from "../../lib/errors";
import { LIMITS } from "../limits";

// Elements with no content, so they never nest (HTML's void elements).
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);
// Elements whose text is not markup: skipped to their end tag.
const RAW_END = new Map(
  ["script", "style", "textarea", "title", "xmp", "plaintext", "noscript", "template"].map((t) => [
    t,
    new RegExp(`</${t}`, "gi"),
  ]),
);
// An open element of these is closed by the next start tag of the same group (`<li>a<li>b`: siblings).
const SIBLINGS: Record<string, string> = {
  p: "p",
  li: "li",
  dt: "d",
  dd: "d",
  tr: "tr",
  td: "cell",
  th: "cell",
  option: "option",
  thead: "tsection",
  tbody: "tsection",
  tfoot: "tsection",
};

// Where the search for an open sibling stops: a new `<li>` closes the open `li` of its own list,
// not one of an enclosing list; likewise rows, cells and definitions within their table or list.
const SCOPE: Record<string, Set<string>> = {
  li: new Set(["ul", "ol", "menu"]),
  tr: new Set(["table", "tbody", "thead", "tfoot"]),
  cell: new Set(["tr", "table"]),
  d: new Set(["dl"]),
  tsection: new Set(["table"]),
  p: new Set(["div", "section", "article", "li", "td", "th", "blockquote", "body"]),
  option: new Set(["select", "datalist"]),
};

/** Closes the open element of `group` in its scope, with what is open inside it (as `<li>a<li>b`). */
function closeSibling(stack: string[], group: string): void {
  const scope = SCOPE[group];
  for (let k = stack.length - 1; k >= 0; k--) {
    const open = stack[k] as string;
    if (SIBLINGS[open] === group) {
      stack.length = k;
      return;
    }
    if (scope?.has(open)) return;
  }
}

const isLetter = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);

/**
 * Throws `Invalid` when HTML nests deeper than `LIMITS.htmlDepth` or has over `LIMITS.htmlElements`
 * elements. Depth as a browser would build it, closely enough: end tags close up to their element,
 * void elements and self-closing tags do not nest, and an open `p`, `li`, `td`… is closed by its
 * next sibling. Linear: each character is read once, an end tag searches at most `htmlDepth` up.
 */
export function checkHtml(html: string, field = "content"): void {
  const stack: string[] = [];
  let elements = 0;
  const n = html.length;
  let i = html.indexOf("<");
  while (i >= 0 && i < n) {
    const c = html.charCodeAt(i + 1);
    if (html.startsWith("<!--", i)) {
      const end = html.indexOf("-->", i + 4);
      i = end < 0 ? n : html.indexOf("<", end + 3);
      continue;
    }
    const closing = c === 0x2f;
    const at = closing ? i + 2 : i + 1;
    if (!isLetter(html.charCodeAt(at))) {
      // `<!doctype …>`, `<?…>`, a lone `<`: text or a declaration, never an element.
      i = html.indexOf("<", i + 1);
      continue;
    }
    let j = at;
    while (j < n && !/[\s/>]/.test(html[j] as string)) j++;
    const name = html.slice(at, j).toLowerCase();
    const end = html.indexOf(">", j);
    if (end < 0) break;
    if (closing) {
      const k = stack.lastIndexOf(name);
      if (k >= 0) stack.length = k;
    } else {
      if (++elements > LIMITS.htmlElements)
        throw new Invalid(`the HTML has over ${LIMITS.htmlElements} elements, the limit of one document`, {
          field,
          limit: LIMITS.htmlElements,
        });
      const group = SIBLINGS[name];
      if (group) closeSibling(stack, group);
      if (!VOID.has(name) && html.charCodeAt(end - 1) !== 0x2f) {
        stack.push(name);
        if (stack.length > LIMITS.htmlDepth)
          throw new Invalid(
            `the HTML nests elements deeper than ${LIMITS.htmlDepth} levels, the limit of one document`,
            { field, limit: LIMITS.htmlDepth },
          );
        const raw = RAW_END.get(name);
        if (raw) {
          raw.lastIndex = end;
          const close = raw.exec(html)?.index ?? -1;
          stack.pop();
          i = close < 0 ? n : close;
          // The end tag itself is skipped as text next.
          i = html.indexOf(">", i);
          i = i < 0 ? n : html.indexOf("<", i);
          continue;
        }
      }
    }
    i = html.indexOf("<", end);
  }
}

/**
 * Throws `Invalid` when a Markdown line opens more than `LIMITS.markdownDepth` nested blockquotes
 * or list items (`>>>>…`, `1. 1. 1. …`, `- - > - …`), or the document holds over
 * `LIMITS.htmlElements` HTML tags (each HTML block is converted on its own). Linear.
 */
export function checkMarkdown(markdown: string, field = "content"): void {
  let depth = 0;
  let lineStart = true;
  let tags = 0;
  const n = markdown.length;
  for (let i = 0; i < n; i++) {
    const c = markdown.charCodeAt(i);
    if (c === 0x0a) {
      lineStart = true;
      depth = 0;
      continue;
    }
    if (c === 0x3c && (isLetter(markdown.charCodeAt(i + 1)) || markdown.charCodeAt(i + 1) === 0x2f)) {
      if (++tags > LIMITS.htmlElements)
        throw new Invalid(
          `the document has over ${LIMITS.htmlElements} HTML tags, the limit of one document`,
          {
            field,
            limit: LIMITS.htmlElements,
          },
        );
    }
    if (!lineStart) continue;
    if (c === 0x20 || c === 0x09) continue;
    let marker = 0;
    if (c === 0x3e) marker = 1;
    else if ((c === 0x2d || c === 0x2a || c === 0x2b) && isBlankAt(markdown, i + 1)) marker = 1;
    else if (c >= 0x30 && c <= 0x39) {
      let j = i;
      while (j < n && j - i < 9 && markdown.charCodeAt(j) >= 0x30 && markdown.charCodeAt(j) <= 0x39) j++;
      const d = markdown.charCodeAt(j);
      if ((d === 0x2e || d === 0x29) && isBlankAt(markdown, j + 1)) {
        marker = 1;
        i = j;
      }
    }
    if (!marker) {
      lineStart = false;
      continue;
    }
    if (++depth <= LIMITS.markdownDepth) continue;
    // `- - - - …` and `* * * …` of any length are a ruler (a thematic break), not lists.
    const eol = markdown.indexOf("\n", i);
    if (/^[-*_ \t]*$/.test(markdown.slice(i, eol < 0 ? n : eol))) {
      i = (eol < 0 ? n : eol) - 1;
      continue;
    }
    throw new Invalid(
      `a Markdown line nests blockquotes or lists deeper than ${LIMITS.markdownDepth} levels, the limit of one document`,
      { field, limit: LIMITS.markdownDepth },
    );
  }
}

function isBlankAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c === 0x20 || c === 0x09 || c === 0x0a || Number.isNaN(c);
}
