import { parseArgs } from "node:util";
import { type Command, EXIT, type Io, Refused, UsageError } from "./io";

/** Every command: its synopsis and summary for the list, and where its code is (loaded when it runs). */
const COMMANDS: Record<
  string,
  { synopsis: string; summary: string; load: () => Promise<{ command: Command }> }
> = {
  serve: {
    synopsis: "serve [--port N]",
    summary: "start the HTTP API (what `npm start` runs)",
    load: () => import("../commands/serve"),
  },
  migrate: {
    synopsis: "migrate",
    summary: "apply pending migrations to the database",
    load: () => import("../commands/migrate"),
  },
  remember: {
    synopsis: "remember <agentId> <text...>",
    summary: "store a memory (`-`: one per line of stdin)",
    load: () => import("../commands/remember"),
  },
  retrieve: {
    synopsis: "retrieve <agentId> <query...>",
    summary: "the agent's memories ranked for the query",
    load: () => import("../commands/retrieve"),
  },
  stats: {
    synopsis: "stats <agentId>",
    summary: "count the agent's memories and their enrichment",
    load: () => import("../commands/stats"),
  },
  export: {
    synopsis: "export <agentId> [--out FILE]",
    summary: "write the agent's stream as JSON Lines",
    load: () => import("../commands/export"),
  },
  import: {
    synopsis: "import <agentId> [FILE]",
    summary: "read a stream written by export, all or nothing",
    load: () => import("../commands/import"),
  },
  "import-docs": {
    synopsis: "import-docs <path>... --agent ID",
    summary: "Markdown, HTML and text files as document memories",
    load: () => import("../commands/import-docs"),
  },
  "import-github": {
    synopsis: "import-github <owner/repo>",
    summary: "a GitHub repository's history as observations",
    load: () => import("../commands/import-github"),
  },
  backfill: {
    synopsis: "backfill --model ID",
    summary: "embed every memory with another model",
    load: () => import("../commands/backfill"),
  },
};

export const USAGE = `usage: memstream <command> [options]     (memstream <command> --help for its options)

commands:
${Object.entries(COMMANDS)
  .map(([, c]) => `  ${c.synopsis.padEnd(35)}${c.summary}`)
  .join("\n")}

Commands that read or write memories talk to a running server with --url URL and --key KEY
(or MEMSTREAM_URL and MEMSTREAM_API_KEY), else open the database themselves: DATABASE_URL, or the
embedded folder (MEMSTREAM_DATA_DIR, default .memstream/data); when a server holds that folder,
they use that server.

exit codes: 0 done, 1 failed, 2 usage error, 3 input refused (import)
`;

/** Runs `memstream <argv>` and resolves with its exit code; it never exits the process itself. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? rest[0] : undefined;
    if (topic === undefined) {
      io.stdout.write(USAGE);
      return EXIT.ok;
    }
    return main([topic, "--help"], io);
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!entry) {
    io.stderr.write(
      `memstream: ${name.startsWith("-") ? "the command comes first" : `unknown command ${name}`}\n\n${USAGE}`,
    );
    return EXIT.usage;
  }
  const { command } = await entry.load();
  const fail = (err: unknown, code: number) => {
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(
      code === EXIT.usage
        ? `memstream ${name}: ${message}\n\n${command.usage}`
        : `memstream ${name}: ${message}\n`,
    );
    return code;
  };
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs({
      args: rest,
      options: { ...command.options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    return fail(err, EXIT.usage);
  }
  if (args.values.help) {
    io.stdout.write(command.usage);
    return EXIT.ok;
  }
  try {
    return await command.run(args, io);
  } catch (err) {
    if (err instanceof UsageError) return fail(err, EXIT.usage);
    return fail(err, err instanceof Refused ? EXIT.refused : EXIT.failed);
  }
}
