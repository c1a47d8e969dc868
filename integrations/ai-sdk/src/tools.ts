import type { MemstreamClient } from "@memstream/client";
import { tool } from "ai";
import { z } from "zod";
import type { RecallLog } from "./recalls.js";

export type ToolsOptions = {
  client: MemstreamClient;
  agentId: string;
  /** Token budget of the text `recall` returns (default 1,500). */
  maxTokens?: number;
  log: RecallLog;
};

/**
 * `remember`, `recall` and `record_outcome` as AI SDK tools (for `generateText`/`streamText`
 * `tools`), with the descriptions the MCP server gives the same verbs. Failures are thrown, so the
 * SDK hands the model a tool error it can correct.
 */
export function memoryTools({ client, agentId, maxTokens = 1_500, log }: ToolsOptions) {
  return {
    remember: tool({
      description:
        "Store what you learned, did or decided in long-term memory, as one self-contained statement with names and specifics (who, what, where), so you can recall it in later turns or sessions.",
      inputSchema: z.object({
        description: z.string().min(1).max(8_000).describe("The memory, e.g. 'Klaus cannot have dairy'"),
        importance: z
          .number()
          .int()
          .min(1)
          .max(10)
          .optional()
          .describe("1 mundane … 10 poignant; omit to let memstream score it"),
      }),
      execute: async (input) => {
        const stored = await client.remember(agentId, {
          ...input,
          metadata: { source: "ai-sdk", tool: "remember" },
        });
        return { id: stored.id, stored: stored.description };
      },
    }),
    recall: tool({
      description:
        "Recall the memories that matter for a question or situation, ranked by recency, importance and relevance. Call it before answering whenever earlier conversations, facts about people, or past outcomes could matter.",
      inputSchema: z.object({
        query: z.string().min(1).max(8_000).describe("What you want to remember about, as a question"),
        k: z.number().int().min(1).max(50).optional().describe("At most this many memories"),
      }),
      execute: async ({ query, k }) => {
        const result = await client.retrieve(agentId, { query, k, format: "text", maxTokens });
        const memoryIds = result.memories.map((m) => m.id);
        log.add({ source: "tool", query, memoryIds, result });
        return { text: result.context?.text || "No memories yet.", ids: memoryIds };
      },
    }),
    record_outcome: tool({
      description:
        "Record how a task you attempted turned out: the task, its type, whether it succeeded, the strategy and the error. Similar outcomes of one task type become lessons that recall returns before the next attempt.",
      inputSchema: z.object({
        task: z.string().min(1).max(2_000),
        taskType: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe("The same for the same kind of task, e.g. 'deploy'"),
        success: z.boolean(),
        strategy: z.string().min(1).max(1_000).optional(),
        error: z.string().min(1).max(1_000).optional(),
      }),
      execute: async (outcome) => {
        const stored = await client.recordOutcome(agentId, outcome);
        return { id: stored.id, recorded: stored.description };
      },
    }),
  };
}
