import type { AgentStats } from "../../memory/agent-stats";
import { agentPath, oneAgent } from "../kit/agent";
import { type Command, EXIT, EXIT_HELP, TARGET_HELP, TARGET_OPTIONS, UsageError } from "../kit/io";
import { answer, openClient } from "../kit/target";

/** `memstream stats <agentId>`: how big the stream is and whether enrichment has caught up. */
export const command: Command = {
  options: { ...TARGET_OPTIONS, json: { type: "boolean" } },
  usage: `usage: memstream stats <agentId> [--json] [--url URL] [--key KEY]

Counts the agent's memories by kind and by enrichment state (importance and embedding pending,
ready or failed), the time span they cover, and what retention removed.

options:
  --json            the stats as JSON (GET /v1/agents/{agentId}/stats)
${TARGET_HELP}
  -h, --help        this help

${EXIT_HELP}
`,
  async run(args, io) {
    const agentId = oneAgent(args);
    if (args.positionals.length > 1) throw new UsageError(`unexpected argument ${args.positionals[1]}`);
    const client = await openClient(args, io, "memstream stats");
    try {
      const stats = await answer<AgentStats>(await client.request("GET", `${agentPath(agentId)}/stats`));
      io.stdout.write(args.values.json ? `${JSON.stringify(stats)}\n` : describeStats(stats));
      return EXIT.ok;
    } finally {
      await client.close();
    }
  },
};

/** The stats as a person reads them, one fact a line. */
export function describeStats(s: AgentStats): string {
  const state = (c: AgentStats["importance"]) => `${c.ready} ready, ${c.pending} pending, ${c.failed} failed`;
  const kinds = Object.entries(s.byKind)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}${n === 1 ? "" : "s"}`)
    .join(", ");
  const lines = [
    `${s.agentId}: ${s.total} ${s.total === 1 ? "memory" : "memories"}${kinds ? ` (${kinds})` : ""}`,
    `importance: ${state(s.importance)}`,
    `embedding:  ${state(s.embedding)}`,
    s.oldest ? `span:       ${s.oldest} to ${s.newest}` : "span:       no memories yet",
    `forgotten:  ${s.forgotten} by retention${s.retainedAt ? `, last run ${s.retainedAt}` : ""}`,
  ];
  const b = s.llmBudget;
  if (b && (b.limits.tokens !== null || b.limits.calls !== null || b.spent.calls > 0)) {
    const left = b.remaining.tokens === null ? "no token limit" : `${b.remaining.tokens} tokens left`;
    lines.push(
      `LLM today:  ${b.spent.tokens} tokens in ${b.spent.calls} calls, ${left}${b.exhausted ? " (exhausted)" : ""}`,
    );
  }
  return `${lines.join("\n")}\n`;
}
