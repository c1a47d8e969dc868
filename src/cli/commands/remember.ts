import { createInterface } from "node:readline";
import { progressBar } from "../../lib/progress-bar";
import { agentPath, oneAgent } from "../kit/agent";
import { type Command, EXIT, EXIT_HELP, int, str, TARGET_HELP, TARGET_OPTIONS, UsageError } from "../kit/io";
import { answer, openClient } from "../kit/target";

/** Memories per request when reading lines (a request takes up to LIMITS.batchSize): progress every 100. */
const BATCH = 100;
const KINDS = ["observation", "reflection", "plan"];

/** `memstream remember <agentId> <text>`: stores one memory, or one per line of stdin. */
export const command: Command = {
  options: {
    ...TARGET_OPTIONS,
    kind: { type: "string" },
    importance: { type: "string" },
    metadata: { type: "string" },
    json: { type: "boolean" },
    quiet: { type: "boolean" },
  },
  usage: `usage: memstream remember <agentId> <text...> [options]
       memstream remember <agentId> - < lines.txt      (one memory per non-empty line)

Stores memories for the agent. Importance and the vector are filled in the background by the
server's workers (opening the database directly, by the next server or worker that sweeps it);
retrieve finds a memory by its words at once, and by meaning once it has its vector.

options:
  --kind KIND       ${KINDS.join(" | ")} (default observation)
  --importance N    1..10, stored as given (default: scored in the background)
  --metadata JSON   a JSON object kept with each memory, e.g. '{"source":"cli"}'
  --json            the stored ids as JSON: {"agentId":…,"ids":[…]}
  --quiet           no progress on stderr (reading lines)
${TARGET_HELP}
  -h, --help        this help

${EXIT_HELP}
`,
  async run(args, io) {
    const agentId = oneAgent(args);
    const words = args.positionals.slice(1);
    if (words.length === 0) throw new UsageError("needs the text to store (or - to read lines from stdin)");
    const kind = str(args, "kind");
    if (kind !== undefined && !KINDS.includes(kind))
      throw new UsageError(`--kind must be one of ${KINDS.join(", ")}`);
    const importance = int(args, "importance", 1, 10);
    const metadata = parseMetadata(str(args, "metadata"));
    const item = (description: string) => ({ description, kind, importance, metadata });
    const fromStdin = words.length === 1 && words[0] === "-";

    const client = await openClient(args, io, "memstream remember");
    const ids: string[] = [];
    const bar = fromStdin && !args.values.quiet ? progressBar(io.stderr) : null;
    const store = async (descriptions: string[]) => {
      const res = await client.request("POST", `${agentPath(agentId)}/memories`, {
        memories: descriptions.map(item),
      });
      const { memories } = await answer<{ memories: { id: string }[] }>(res);
      ids.push(...memories.map((m) => m.id));
      bar?.draw("remember", ids.length, null);
    };
    try {
      if (fromStdin) {
        let batch: string[] = [];
        for await (const line of createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
          if (line.trim() === "") continue;
          batch.push(line.trim());
          if (batch.length === BATCH) {
            await store(batch);
            batch = [];
          }
        }
        if (batch.length > 0) await store(batch);
        bar?.end();
      } else {
        await store([words.join(" ")]);
      }
    } finally {
      await client.close();
    }
    io.stdout.write(
      args.values.json
        ? `${JSON.stringify({ agentId, ids })}\n`
        : `stored ${ids.length} ${ids.length === 1 ? "memory" : "memories"} for ${agentId} in ${client.where}${ids.length > 0 && ids.length <= 10 ? `: ${ids.join(", ")}` : ""}\n`,
    );
    return EXIT.ok;
  },
};

function parseMetadata(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError('--metadata must be a JSON object, e.g. \'{"source":"cli"}\'');
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new UsageError('--metadata must be a JSON object, e.g. \'{"source":"cli"}\'');
  return value as Record<string, unknown>;
}
