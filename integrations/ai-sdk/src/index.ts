import type { MemstreamClient } from "@memstream/client";
import { memoryMiddleware } from "./middleware.js";
import { type Recall, RecallLog, type Turn } from "./recalls.js";
import { memoryTools } from "./tools.js";

export { lastUserText } from "./middleware.js";
export { citedMemories, type Recall, type Turn } from "./recalls.js";

export type MemstreamMemoryOptions = {
  /** A `createMemstreamClient(...)` from `@memstream/client`. */
  client: MemstreamClient;
  /** The agent whose memory stream this conversation reads and writes. */
  agentId: string;
  /** Token budget of what the middleware puts in the prompt (default 1,000). */
  maxTokens?: number;
  /** At most this many memories in the prompt. */
  k?: number;
  /** Token budget of the `recall` tool's answer (default 1,500). */
  toolMaxTokens?: number;
  /** Store each finished turn as observations (default true). */
  storeTurns?: boolean;
  /**
   * Called after each finished turn with what was recalled for it (by the middleware and the
   * `recall` tool: ids and the server's answers) and the answer's text. This is the place to tell
   * memstream which recalled memories the answer used (retrieval feedback).
   */
  afterTurn?: (turn: Turn) => void | Promise<void>;
  /**
   * After each turn, which memories of each recall the answer used, sent as retrieval feedback
   * (POST /feedback; the rest of the recall counts as unused): the agent's ranking weights learn
   * from it when learning is on. Default `citedMemories` (ids named, or words repeated); false = none.
   */
  cited?: false | ((recall: Recall, turn: Turn) => string[] | Promise<string[]>);
  /** Memory failures never fail the model call; they are reported here (default console.warn). */
  onError?: (error: unknown) => void;
};

/**
 * Long-term memory for one agent's conversation with the AI SDK:
 * - `middleware` for `wrapLanguageModel({ model, middleware })`: recalls for the last user
 *   message into a system message, stores each finished turn;
 * - `tools` for `generateText`/`streamText`: `remember`, `recall`, `record_outcome`.
 * Both share one log of the turn's recalls, which `afterTurn` receives.
 */
export function memstreamMemory(options: MemstreamMemoryOptions) {
  const log = new RecallLog();
  const { client, agentId } = options;
  return {
    middleware: memoryMiddleware({ ...options, log }),
    tools: memoryTools({ client, agentId, log, maxTokens: options.toolMaxTokens }),
  };
}
