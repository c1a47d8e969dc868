import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { parseArgs } from "node:util";
import { composeSystem } from "../compose";
import { loadConfig } from "../config";
import { createLogger } from "../lib/logger";
import { progressBar } from "../lib/progress-bar";
import { importDocument } from "../memory/documents/import-document";
import { LIMITS } from "../memory/limits";

// `npm run import:docs -- <dir|file>... --agent <id> [--max-tokens N]`
// Imports Markdown, HTML and text files as `document` memories; a file's source is its path
// relative to the current directory, so running it again from the same place replaces each
// file's previous version (unchanged files are left as they are).
const EXTENSIONS = new Set([".md", ".markdown", ".mdx", ".html", ".htm", ".txt"]);
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { agent: { type: "string" }, "max-tokens": { type: "string" } },
});
const config = loadConfig();
const logger = createLogger(config.logLevel, { service: "memstream-import-docs" });
const maxTokens = values["max-tokens"] ? Number(values["max-tokens"]) : undefined;
if (!values.agent || positionals.length === 0) {
  logger.error("usage: npm run import:docs -- <dir|file>... --agent <id> [--max-tokens N]");
  process.exit(2);
}
if (
  maxTokens !== undefined &&
  !(
    Number.isInteger(maxTokens) &&
    maxTokens >= LIMITS.sectionTokens.min &&
    maxTokens <= LIMITS.sectionTokens.max
  )
) {
  logger.error(`--max-tokens must be an integer ${LIMITS.sectionTokens.min}..${LIMITS.sectionTokens.max}`);
  process.exit(2);
}

/** The files to import under each argument, in a stable order. */
function filesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: "utf8" })
    .map((f) => join(path, f))
    .filter((f) => EXTENSIONS.has(extname(f).toLowerCase()) && statSync(f).isFile())
    .sort();
}

const files = positionals.flatMap(filesOf);
// Documents are split in this thread: nothing else waits on this process's event loop.
const system = await composeSystem({ ...config, work: { ...config.work, threads: 0 } }, logger);
const deps = { ...system.memory, text: system.text };
const bar = progressBar();
const totals = { files: 0, sections: 0, created: 0, kept: 0, deleted: 0, unchanged: 0, failed: 0 };
try {
  for (const [i, file] of files.entries()) {
    const source = relative(process.cwd(), file).split(sep).join("/");
    bar.draw("import:docs", i, files.length, source);
    try {
      const done = await importDocument(deps, values.agent, {
        source,
        content: readFileSync(file, "utf8"),
        ...(maxTokens ? { maxTokens } : {}),
      });
      totals.files++;
      totals.sections += done.sections;
      totals.created += done.created;
      totals.kept += done.kept;
      totals.deleted += done.deleted;
      if (done.unchanged) totals.unchanged++;
    } catch (error) {
      totals.failed++;
      bar.end();
      logger.error("document not imported", {
        source,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  bar.draw("import:docs", files.length, files.length, "");
  bar.end();
  logger.info("documents imported", { agent: values.agent, ...totals });
  if (totals.failed > 0) process.exitCode = 1;
} finally {
  await system.close();
}
