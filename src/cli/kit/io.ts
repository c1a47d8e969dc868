import type { ParseArgsConfig } from "node:util";

/** Where a command reads and writes, and the environment it sees: a process's, or a test's. */
export type Io = {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: Record<string, string | undefined>;
};

/** Every command's exit codes (its --help says them). */
export const EXIT = { ok: 0, failed: 1, usage: 2, refused: 3 } as const;

/** The command line is wrong: exit 2 with the message and the command's usage. */
export class UsageError extends Error {}

/** The input was refused as invalid (import): exit 3, the message names the line and field. */
export class Refused extends Error {}

type Options = NonNullable<ParseArgsConfig["options"]>;
/** What parseArgs gives a command: option values by name, and the positionals. */
export type Parsed = {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
};

/** One subcommand: its options, its --help text, and what it does (resolving to an exit code). */
export type Command = {
  options: Options;
  usage: string;
  run(args: Parsed, io: Io): Promise<number>;
};

/** The options every command that reaches the data takes. */
export const TARGET_OPTIONS = {
  url: { type: "string" },
  key: { type: "string" },
} as const satisfies Options;

export const TARGET_HELP = `  --url URL         talk to a running memstream server (or MEMSTREAM_URL), e.g. http://127.0.0.1:8787;
                    without it the database is opened directly (DATABASE_URL, else the embedded folder
                    MEMSTREAM_DATA_DIR; a server holding that folder is used instead)
  --key KEY         the server's API key (or MEMSTREAM_API_KEY)`;

export const EXIT_HELP = "exit codes: 0 done, 1 failed, 2 usage error";

/** A string option as given, or undefined. */
export const str = (p: Parsed, name: string): string | undefined => {
  const v = p.values[name];
  return typeof v === "string" ? v : undefined;
};

/** A repeatable string option's values. */
export const strs = (p: Parsed, name: string): string[] => {
  const v = p.values[name];
  return Array.isArray(v)
    ? v.filter((x): x is string => typeof x === "string")
    : typeof v === "string"
      ? [v]
      : [];
};

/** An integer option within bounds; a usage error names it otherwise. */
export function int(p: Parsed, name: string, min: number, max: number): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer ${min}..${max}`);
  return n;
}

/** Writes and waits when the stream is full (a long output never piles up in memory). */
export async function write(out: NodeJS.WritableStream, chunk: string): Promise<void> {
  if (!out.write(chunk)) await new Promise((resolve) => out.once("drain", resolve));
}
