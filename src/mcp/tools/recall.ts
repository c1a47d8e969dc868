import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { IsoTime, Kind } from "../../api/schemas";
import { retrieveContext } from "../../memory/context/retrieve-context";
import { LIMITS } from "../../memory/limits";
import { DEFAULT_PRESET, PRESETS } from "../../memory/retrieve/presets";
import { RELEVANCE_KINDS } from "../../memory/retrieve/ranking/relevance/kinds";
import { AgentIdArg, resolveAgent } from "../agent";
import type { McpDepsSource, McpSession } from "../deps";
import { guard, ok } from "../result";

/** The budget when the caller gives none: a few dozen one-line memories, small beside any context window. */
export const RECALL_DEFAULT_MAX_TOKENS = 1_500;

const Weight = z.number().min(0).max(100);

const input = {
  agentId: AgentIdArg,
  query: z
    .string()
    .min(1)
    .max(LIMITS.queryChars)
    .describe(
      "What you want to remember about, as a question or the current situation, e.g. 'What did Maria say about the party?'",
    ),
  maxTokens: z
    .number()
    .int()
    .min(1)
    .max(LIMITS.maxContextTokens)
    .default(RECALL_DEFAULT_MAX_TOKENS)
    .describe("Token budget of the returned text block; the best memories that fit are returned"),
  k: z.number().int().min(1).max(LIMITS.maxK).optional().describe("At most this many memories"),
  kinds: z.array(Kind).min(1).optional().describe("Only these kinds, e.g. ['reflection']"),
  weights: z
    .object({ recency: Weight.optional(), importance: Weight.optional(), relevance: Weight.optional() })
    .optional()
    .describe(
      `Ranking weights (default: the agent's retrieve defaults, else the ${DEFAULT_PRESET} preset's); raise relevance to favour topical matches`,
    ),
  relevance: z
    .enum(RELEVANCE_KINDS)
    .optional()
    .describe(
      `vector: meaning; lexical: shared words (names, ids); hybrid: both; contextual: hybrid plus the neighbouring memories'; windowed: contextual that also matches the neighbours' words, the strongest for questions about the past (default: ${PRESETS[DEFAULT_PRESET].relevance}, from the ${DEFAULT_PRESET} preset)`,
    ),
  now: IsoTime.optional().describe("The current time for recency (simulations); default the server's clock"),
};

/** `recall`: the retrieve ranking as a prompt-ready text block within a token budget, plus the ids. */
export function registerRecall(server: McpServer, source: McpDepsSource, session: McpSession) {
  server.registerTool(
    "recall",
    {
      title: "Recall",
      description: [
        "Recall the memories that matter for a question or situation, ranked by recency, importance and relevance (Generative Agents).",
        "Call it before answering or acting whenever earlier conversations, facts about people, or past outcomes could matter.",
        "Returns a text block of timestamped memories, best first, that fits `maxTokens`, then the ids of the memories in it",
        "and the recall's retrievalId (tell `feedback` which memories you used).",
        "Reflections (★) are conclusions drawn from other memories.",
      ].join(" "),
      inputSchema: input,
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    (args) =>
      guard(source, "recall", async (deps) => {
        const { agentId: requested, ...query } = args;
        const agentId = resolveAgent(session, requested);
        const result = await retrieveContext(deps, agentId, { ...query, format: "text" }, deps.text);
        const ids = result.memories.map((m) => m.id);
        // Nothing returned because the best memory alone is over the budget is not an empty stream.
        const text =
          ids.length > 0
            ? `${result.context.text}\n\nids: ${ids.join(", ")}\nretrievalId: ${result.retrievalId}`
            : result.context.truncated
              ? `No memory fits within maxTokens ${query.maxTokens}: the most relevant one alone is longer. Raise maxTokens.`
              : "No memories yet.";
        return ok(text, {
          agentId,
          retrievalId: result.retrievalId,
          ids,
          text: result.context.text ?? "",
          tokens: result.context.tokens,
          truncated: result.context.truncated,
          memories: result.memories.map((m) => ({
            id: m.id,
            kind: m.kind,
            description: m.description,
            createdAt: m.createdAt,
            importance: m.importance,
            score: m.score,
          })),
        });
      }),
  );
}
