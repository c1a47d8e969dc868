import { type Command, EXIT, EXIT_HELP, UsageError } from "../kit/io";

/** `memstream migrate`: applies pending migrations to the configured database. */
export const command: Command = {
  options: {},
  usage: `usage: memstream migrate

Applies pending migrations to the configured database (DATABASE_URL, or the embedded folder
MEMSTREAM_DATA_DIR) and exits; a database already up to date is left as it is. A server migrates
on start too: this is for deploying the schema before the servers.

options:
  -h, --help        this help

${EXIT_HELP}
`,
  async run(args, io) {
    if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
    const [{ loadConfig }, { openDatabase }] = await Promise.all([
      import("../../config"),
      import("../../db/client"),
    ]);
    const config = loadConfig(io.env);
    const database = await openDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      distributed: config.distributed,
      role: "memstream migrate",
    });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    const where = database.kind === "pglite" ? `the embedded database in ${config.dataDir}` : "the database";
    io.stdout.write(`migrations applied to ${where}\n`);
    return EXIT.ok;
  },
};
