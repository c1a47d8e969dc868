import { readFileSync } from "node:fs";

/** One `curl` command of the README, as the shell would pass it. */
export type Curl = {
  method: string;
  /** Path and query after `localhost:8787`. */
  path: string;
  headers: Record<string, string>;
  /** `-d`'s text, parsed as JSON (undefined without `-d`). */
  body: unknown;
  /** The README section (`## …` / `### …` heading) it stands under. */
  section: string;
};

/**
 * Every `curl` command in the README's ```sh and ```bash blocks, in order, read as a POSIX shell reads them:
 * words split on blanks, '…' quoted (newlines included, `'\''` for a quote), "…" quoted,
 * backslash-newline joins lines, `#` starts a comment, a newline ends a command.
 */
const isHeading = (line: string) => /^#{2,4} /.test(line);
const headingText = (line: string) => line.replace(/^#+ /, "");

/**
 * The documentation whose examples run as written: the README, then the reference pages it links,
 * in the order a reader meets them (an example may use what one before it answered).
 */
export const DOC_PAGES = [
  "README.md",
  "docs/operations.md",
  "docs/api.md",
  "docs/integrations.md",
  "docs/guide.md",
  "docs/events.md",
];

/** The text of the section under `heading` (in the first page of `paths` that has it), up to the next heading. */
export function readmeSection(heading: string, paths: string | string[] = DOC_PAGES): string {
  for (const path of typeof paths === "string" ? [paths] : paths) {
    const lines = readFileSync(path, "utf8").split("\n");
    const at = lines.findIndex((l) => isHeading(l) && headingText(l) === heading);
    if (at < 0) continue;
    const end = lines.findIndex((l, i) => i > at && isHeading(l));
    return lines.slice(at + 1, end < 0 ? undefined : end).join("\n");
  }
  throw new Error(`the documentation has no section "${heading}"`);
}

/** Every `curl` command of the documentation's pages (DOC_PAGES), in order. */
export function readmeCurls(paths: string | string[] = DOC_PAGES): Curl[] {
  return (typeof paths === "string" ? [paths] : paths).flatMap((p) => pageCurls(p));
}

function pageCurls(path: string): Curl[] {
  const readme = readFileSync(path, "utf8");
  const curls: Curl[] = [];
  const block = /^```(?:sh|bash)\n([\s\S]*?)^```$/gm;
  for (let m = block.exec(readme); m; m = block.exec(readme)) {
    const before = readme.slice(0, m.index);
    const section = headingText(before.split("\n").findLast(isHeading) ?? "");
    for (const words of shellCommands(m[1] as string)) {
      if (words[0] === "curl") curls.push({ ...readCurl(words), section });
    }
  }
  return curls;
}

function readCurl(words: string[]): Omit<Curl, "section"> {
  let method: string | undefined;
  let url: string | undefined;
  let data: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 1; i < words.length; i++) {
    const w = words[i] as string;
    if (w === "-s") continue;
    if (w === "-X") method = words[++i];
    else if (w === "-H") {
      const [name, ...value] = (words[++i] as string).split(":");
      headers[(name as string).trim().toLowerCase()] = value.join(":").trim();
    } else if (w === "-d") data = words[++i];
    else if (w.startsWith("localhost:8787/")) url = w.slice("localhost:8787".length);
    else throw new Error(`curl option the README parser does not know: ${w}`);
  }
  if (!url) throw new Error(`curl without a localhost:8787 URL: ${words.join(" ")}`);
  return {
    method: method ?? (data === undefined ? "GET" : "POST"),
    path: url,
    headers,
    body: data === undefined ? undefined : JSON.parse(data),
  };
}

/** The commands of a shell script, each as its words. */
export function shellCommands(script: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < script.length; i++) {
    const c = script[i] as string;
    if (c === "\\" && script[i + 1] === "\n") i++;
    else if (c === "\\") word = (word ?? "") + (script[++i] ?? "");
    else if (c === "'" || c === '"') {
      const end = script.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unterminated ${c} in the README: ${script.slice(i, i + 60)}`);
      word = (word ?? "") + script.slice(i + 1, end);
      i = end;
    } else if (c === "#" && word === null) {
      const nl = script.indexOf("\n", i);
      i = (nl < 0 ? script.length : nl) - 1;
    } else if (c === "\n" || c === ";") endCommand();
    else if (c === " " || c === "\t") endWord();
    else word = (word ?? "") + c;
  }
  endCommand();
  return commands;
}
