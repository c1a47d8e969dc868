import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { progressBar } from "../../lib/progress-bar";
import { LIMITS } from "../../memory/limits";
import { agentPath } from "../kit/agent";
import { type Command, EXIT, EXIT_HELP, int, str, TARGET_HELP, TARGET_OPTIONS, UsageError } from "../kit/io";
import { answer, openClient } from "../kit/target";

const EXTENSIONS = new Set([".md", ".markdown", ".mdx", ".html", ".htm", ".txt"]);
const SECTION_TOKENS = LIMITS.sectionTokens;

type Imported = { sections: number; created: number; kept: number; deleted: number; unchanged: boolean };

/**
 * `memstream import-docs <dir|file>... --agent <id>` (also `npm run import:docs -- …`): Markdown,
 * HTML and text files as `document` memories. A file's source is its path relative to the current
 * directory, so running it again from the same place replaces each file's previous version
 * (unchanged files are left as they are).
 */
export const command: Command = {
  options: { ...TARGET_OPTIONS, agent: { type: "string" }, "max-tokens": { type: "string" } },
  usage: `usage: memstream import-docs <dir|file>... --agent <id> [--max-tokens N] [options]

Imports Markdown, HTML and text files (${[...EXTENSIONS].join(" ")}; folders are read recursively) as
document memories, one per section, through POST /v1/agents/{agentId}/documents. A file's source is
its path relative to the current directory: importing again from the same place replaces each
file's previous version, and unchanged files are left as they are. Ends with a log line of counts.

options:
  --agent ID        the agent to import into (required)
  --max-tokens N    section size, ${SECTION_TOKENS.min}..${SECTION_TOKENS.max} tokens (default 512)
${TARGET_HELP}
  -h, --help        this help

${EXIT_HELP} (1 also when a file was not imported; the others are)
`,
  async run(args, io) {
    const agent = str(args, "agent");
    if (!agent) throw new UsageError("needs --agent <id>");
    if (args.positionals.length === 0) throw new UsageError("needs the files or folders to import");
    const maxTokens = int(args, "max-tokens", SECTION_TOKENS.min, SECTION_TOKENS.max);
    const files = args.positionals.flatMap(filesOf);
    const [{ loadConfig }, { createLogger }] = await Promise.all([
      import("../../config"),
      import("../../lib/logger"),
    ]);
    const logger = createLogger(loadConfig(io.env).logLevel, { service: "memstream-import-docs" });

    const client = await openClient(args, io, "memstream import-docs");
    const bar = progressBar(io.stderr);
    const totals = { files: 0, sections: 0, created: 0, kept: 0, deleted: 0, unchanged: 0, failed: 0 };
    try {
      for (const [i, file] of files.entries()) {
        const source = relative(process.cwd(), file).split(sep).join("/");
        bar.draw("import:docs", i, files.length, source);
        try {
          const res = await client.request("POST", `${agentPath(agent)}/documents`, {
            source,
            content: readFileSync(file, "utf8"),
            ...(maxTokens ? { maxTokens } : {}),
          });
          const done = await answer<Imported>(res);
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
    } finally {
      await client.close();
    }
    logger.info("documents imported", { agent, ...totals });
    return totals.failed > 0 ? EXIT.failed : EXIT.ok;
  },
};

/** The files to import under each argument, in a stable order. */
function filesOf(path: string): string[] {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    throw new UsageError(`${path}: no such file or folder`);
  }
  if (!stat.isDirectory()) return [path];
  return readdirSync(path, { recursive: true, encoding: "utf8" })
    .map((f) => join(path, f))
    .filter((f) => EXTENSIONS.has(extname(f).toLowerCase()) && statSync(f).isFile())
    .sort();
}
