import { agentPath, oneAgent } from "../kit/agent";
import {
  type Command,
  EXIT,
  EXIT_HELP,
  int,
  str,
  strs,
  TARGET_HELP,
  TARGET_OPTIONS,
  UsageError,
} from "../kit/io";
import { answer, openClient } from "../kit/target";

const KINDS = ["observation", "reflection", "plan", "document", "outcome", "lesson"];
const RELEVANCE = ["vector", "lexical", "hybrid", "contextual", "windowed"];

type Hit = {
  id: string;
  kind: string;
  description: string;
  createdAt: string;
  importance: number | null;
  score: number;
};
type Answer = {
  retrievalId: string;
  memories: Hit[];
  mode: string;
  ranking: { plan: string; relevance: string };
  freshness: { pending: number; embeddedInline: number };
  context?: { text?: string; tokens: number; truncated: boolean };
};

/** `memstream retrieve <agentId> <query>`: the agent's memories ranked for the query, best first. */
export const command: Command = {
  options: {
    ...TARGET_OPTIONS,
    k: { type: "string" },
    kind: { type: "string", multiple: true },
    relevance: { type: "string" },
    "max-tokens": { type: "string" },
    text: { type: "boolean" },
    json: { type: "boolean" },
  },
  usage: `usage: memstream retrieve <agentId> <query...> [options]

Ranks the agent's memories by recency, importance and relevance to the query (POST
/v1/agents/{agentId}/retrieve, with the agent's ranking defaults) and prints them best first:
rank, score, kind, importance, when, the text and the id.

options:
  --k N             at most N memories (1..200, default 10)
  --kind KIND       only this kind (repeatable): ${KINDS.join(", ")}
  --relevance R     ${RELEVANCE.join(" | ")} (default: the agent's, else the preset's)
  --max-tokens N    the best memories whose text block fits N tokens
  --text            print the prompt-ready text block instead of the list
  --json            the API's answer as JSON
${TARGET_HELP}
  -h, --help        this help

${EXIT_HELP}
`,
  async run(args, io) {
    const agentId = oneAgent(args);
    const query = args.positionals.slice(1).join(" ").trim();
    if (!query) throw new UsageError("needs a query");
    const kinds = strs(args, "kind");
    const bad = kinds.find((k) => !KINDS.includes(k));
    if (bad !== undefined) throw new UsageError(`--kind ${bad} is not one of ${KINDS.join(", ")}`);
    const relevance = str(args, "relevance");
    if (relevance !== undefined && !RELEVANCE.includes(relevance))
      throw new UsageError(`--relevance must be one of ${RELEVANCE.join(", ")}`);
    const body = {
      query,
      k: int(args, "k", 1, 200),
      kinds: kinds.length > 0 ? kinds : undefined,
      relevance,
      maxTokens: int(args, "max-tokens", 1, 200_000),
      format: args.values.text ? "text" : undefined,
    };

    const client = await openClient(args, io, "memstream retrieve");
    let result: Answer;
    try {
      result = await answer<Answer>(await client.request("POST", `${agentPath(agentId)}/retrieve`, body));
    } finally {
      await client.close();
    }
    if (args.values.json) io.stdout.write(`${JSON.stringify(result)}\n`);
    else if (args.values.text) io.stdout.write(`${result.context?.text ?? ""}\n`);
    else io.stdout.write(describeHits(result));
    return EXIT.ok;
  },
};

/** The ranked memories as a person reads them, then how they were ranked and what was not searchable. */
export function describeHits(r: Answer): string {
  if (r.memories.length === 0) return "no memories match\n";
  const lines = r.memories.map(
    (m, i) =>
      `${String(i + 1).padStart(2)}. ${m.score.toFixed(3)}  ${m.kind.padEnd(11)} imp ${m.importance ?? "?"}  ${m.createdAt.slice(0, 16).replace("T", " ")}  ${m.description}  (${m.id})`,
  );
  lines.push(
    `${r.memories.length} ${r.memories.length === 1 ? "memory" : "memories"}, ranked ${r.mode} (${r.ranking.relevance} relevance); retrievalId ${r.retrievalId}`,
  );
  if (r.freshness.pending > 0)
    lines.push(
      `${r.freshness.pending} of the agent's memories had no vector yet (${r.freshness.embeddedInline} embedded for this retrieve)`,
    );
  return `${lines.join("\n")}\n`;
}
