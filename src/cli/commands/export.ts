import { progressBar } from "../../lib/progress-bar";
import { agentPath, oneAgent } from "../kit/agent";
import { type Command, EXIT, EXIT_HELP, str, TARGET_HELP, TARGET_OPTIONS, UsageError } from "../kit/io";
import { openPortable, output } from "../kit/portable";
import { errorMessage, httpClient, remoteOf } from "../kit/target";

/** `memstream export <agentId>`: the agent's stream as JSON Lines (docs/adr/0038). */
export const command: Command = {
  options: { ...TARGET_OPTIONS, out: { type: "string" }, quiet: { type: "boolean" } },
  usage: `usage: memstream export <agentId> [--out FILE] [options]

Writes the agent's stream as JSON Lines (default: stdout): a header with the format version and
the embedding models, then every memory with its vectors, and the agent's settings; \`memstream
import\` reads it back.

options:
  --out FILE        write to FILE instead of stdout
  --quiet           no progress on stderr
${TARGET_HELP}
  -h, --help        this help

${EXIT_HELP}
`,
  async run(args, io) {
    const agentId = oneAgent(args);
    if (args.positionals.length > 1) throw new UsageError(`unexpected argument ${args.positionals[1]}`);
    const bar = args.values.quiet ? null : progressBar(io.stderr);
    const out = output(io, str(args, "out"));
    const progress = exportProgress(bar);
    const remote = await remoteOf(args, io);
    try {
      if (remote) {
        const res = await httpClient(remote).request("GET", `${agentPath(agentId)}/export`);
        if (!res.ok || !res.body) throw new Error(`${res.status} ${errorMessage(await res.text())}`);
        const decoder = new TextDecoder();
        for await (const bytes of res.body) {
          const chunk = decoder.decode(bytes, { stream: true });
          progress(chunk);
          await out.write(chunk);
        }
      } else {
        const { exportAgent } = await import("../../memory/portable/export-stream");
        const db = await openPortable(io, "memstream export");
        try {
          await exportAgent(db.deps, agentId, async (chunk) => {
            progress(chunk);
            await out.write(chunk);
          });
        } finally {
          await db.close();
        }
      }
      await out.close();
    } finally {
      bar?.end();
    }
    return EXIT.ok;
  },
};

/** Counts the lines (memories) written for the progress bar, from the header's total. */
function exportProgress(bar: ReturnType<typeof progressBar> | null) {
  let total: number | null = null;
  let done = 0;
  return (chunk: string) => {
    if (!bar) return;
    if (total === null && chunk.startsWith('{"type":"header"')) {
      total = (JSON.parse(chunk.slice(0, chunk.indexOf("\n"))) as { memories: number }).memories;
    }
    for (let i = chunk.indexOf('{"type":"memory"'); i !== -1; i = chunk.indexOf('\n{"type":"memory"', i + 1))
      done++;
    bar.draw("export", Math.min(done, total ?? done), total);
  };
}
