import { createReadStream } from "node:fs";
import { agentPath, oneAgent } from "../kit/agent";
import { type Command, EXIT, Refused, TARGET_HELP, TARGET_OPTIONS, UsageError } from "../kit/io";
import { openPortable } from "../kit/portable";
import { errorMessage, remoteOf } from "../kit/target";

/** `memstream import <agentId> [FILE]`: reads a stream written by export, all or nothing. */
export const command: Command = {
  options: { ...TARGET_OPTIONS, quiet: { type: "boolean" } },
  usage: `usage: memstream import <agentId> [FILE] [options]

Reads a stream written by \`memstream export\` (default: stdin) into the agent, all or nothing:
every line is checked first, and a re-run adds nothing. Prints what was added as JSON.

options:
  --quiet           (accepted for symmetry with export: import prints no progress)
${TARGET_HELP}
  -h, --help        this help

exit codes: 0 done, 1 failed, 2 usage error, 3 the file was refused (the message names its line and field)
`,
  async run(args, io) {
    const agentId = oneAgent(args);
    const [, file, extra] = args.positionals;
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
    const input = () => (file ? createReadStream(file) : io.stdin);
    const remote = await remoteOf(args, io);
    if (remote) {
      const res = await fetch(`${remote.url}${agentPath(agentId)}/import`, {
        method: "POST",
        headers: {
          ...(remote.key ? { authorization: `Bearer ${remote.key}` } : {}),
          "content-type": "application/x-ndjson",
        },
        body: input() as unknown as ReadableStream,
        duplex: "half",
      } as RequestInit);
      const text = await res.text();
      if (res.ok) {
        io.stdout.write(`${text.trim()}\n`);
        return EXIT.ok;
      }
      const message = errorMessage(text).replace(/^invalid_request: /, "");
      if (res.status === 400 || res.status === 413 || res.status === 415) throw new Refused(message);
      throw new Error(`${res.status} ${message}`);
    }
    const [{ importAgent }, { DomainError }] = await Promise.all([
      import("../../memory/portable/import-stream"),
      import("../../lib/errors"),
    ]);
    const db = await openPortable(io, "memstream import");
    try {
      const report = await importAgent(db.deps, agentId, input());
      io.stdout.write(`${JSON.stringify(report)}\n`);
      return EXIT.ok;
    } catch (err) {
      if (err instanceof DomainError && err.code === "invalid_request") throw new Refused(err.message);
      throw err;
    } finally {
      await db.close();
    }
  },
};
