import { type Command, EXIT, EXIT_HELP, int, str, UsageError } from "../kit/io";

/** `memstream serve`: the HTTP API, as `npm start` runs it. */
export const command: Command = {
  options: { port: { type: "string" }, host: { type: "string" } },
  usage: `usage: memstream serve [--port N] [--host HOST]

Starts the HTTP API (what \`npm start\` runs), configured by the environment (docs/operations.md):
DATABASE_URL, else the embedded folder MEMSTREAM_DATA_DIR; the enrichment workers run in it unless
MEMSTREAM_WORKERS=off. It runs until SIGINT or SIGTERM, then finishes what it holds and exits.

options:
  --port N          listen on this port (PORT, default 8787; 0 = any free port)
  --host HOST       listen on this address (HOST, default 127.0.0.1)
  -h, --help        this help

${EXIT_HELP}
`,
  async run(args) {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
    const port = int(args, "port", 0, 65535);
    const host = str(args, "host");
    // The server reads its configuration from the environment, once, as `npm start` does.
    if (port !== undefined) process.env.PORT = String(port);
    if (host !== undefined) process.env.HOST = host;
    await import("../../server");
    return EXIT.ok;
  },
};
