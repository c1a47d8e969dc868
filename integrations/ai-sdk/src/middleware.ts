import type { MemstreamClient } from "@memstream/client";
import type { LanguageModelMiddleware } from "ai";
import { citedMemories, type Recall, type RecallLog, type Turn } from "./recalls.js";

// The provider-level types, as the middleware contract of `ai` names them (no direct dependency
// on @ai-sdk/provider).
type CallOptions = Parameters<NonNullable<LanguageModelMiddleware["transformParams"]>>[0]["params"];
type Prompt = CallOptions["prompt"];
type StreamPart =
  Awaited<ReturnType<NonNullable<LanguageModelMiddleware["wrapStream"]>>>["stream"] extends ReadableStream<
    infer P
  >
    ? P
    : never;

export type MiddlewareOptions = {
  client: MemstreamClient;
  agentId: string;
  log: RecallLog;
  /** Token budget of the recalled block (default 1,000). */
  maxTokens?: number;
  /** At most this many memories (default: as many as fit `maxTokens`). */
  k?: number;
  /** Store each finished turn (the user's message and the answer) as two observations (default true). */
  storeTurns?: boolean;
  /** Which memories of a recall the answer used; false = report none; see `memstreamMemory`'s `cited`. */
  cited?: false | ((recall: Recall, turn: Turn) => string[] | Promise<string[]>);
  /** Called after each finished turn; see `memstreamMemory`'s `afterTurn`. */
  afterTurn?: (turn: Turn) => void | Promise<void>;
  /** Memory failures never fail the model call; they are reported here (default console.warn). */
  onError?: (error: unknown) => void;
};

/** Longest stored message: the server's description limit. */
const MAX_DESCRIPTION = 8_000;

/**
 * A language model middleware (`wrapLanguageModel({ model, middleware })`): before each call it
 * recalls what memory holds for the last user message and adds it as a system message; after the
 * final step of a turn (not a step that only calls tools) it stores the turn and calls
 * `afterTurn`. The steps of one tool loop share one recall (same user message). A memory failure
 * is reported to `onError` and the model answers without memory.
 */
export function memoryMiddleware(o: MiddlewareOptions): LanguageModelMiddleware {
  const onError = o.onError ?? ((e: unknown) => console.warn("memstream:", e));
  let cached: { userText: string; block: string | null } | null = null;

  async function recallFor(userText: string): Promise<string | null> {
    if (cached?.userText === userText) return cached.block;
    let block: string | null = null;
    try {
      const result = await o.client.retrieve(o.agentId, {
        query: userText.slice(0, MAX_DESCRIPTION),
        format: "text",
        maxTokens: o.maxTokens ?? 1_000,
        ...(o.k ? { k: o.k } : {}),
      });
      const memoryIds = result.memories.map((m) => m.id);
      o.log.add({ source: "middleware", query: userText, memoryIds, result });
      // The server's block has its own heading ("Relevant memories (most relevant first):").
      block = memoryIds.length > 0 && result.context?.text ? result.context.text : null;
    } catch (error) {
      onError(error);
    }
    cached = { userText, block };
    return block;
  }

  /** Tells the server which memories of each recall the answer used (retrieval feedback). */
  async function reportFeedback(turn: Turn): Promise<void> {
    if (o.cited === false) return;
    for (const recall of turn.recalled) {
      const retrievalId = recall.result.retrievalId;
      if (!retrievalId) continue;
      const used = o.cited ? await o.cited(recall, turn) : citedMemories(recall, turn.answerText);
      await o.client.feedback(o.agentId, {
        retrievalId,
        used: used.filter((id) => recall.memoryIds.includes(id)),
      });
    }
  }

  async function finishTurn(params: CallOptions, answerText: string): Promise<void> {
    const userText = lastUserText(params.prompt);
    cached = null;
    const turn: Turn = { agentId: o.agentId, userText: userText ?? "", answerText, recalled: o.log.take() };
    try {
      if (o.storeTurns !== false && userText) {
        const metadata = { source: "ai-sdk" };
        await o.client.rememberMany(o.agentId, [
          { description: clip(`User said: ${userText}`), metadata: { ...metadata, role: "user" } },
          ...(answerText.trim()
            ? [
                {
                  description: clip(`Assistant answered: ${answerText}`),
                  metadata: { ...metadata, role: "assistant" },
                },
              ]
            : []),
        ]);
      }
      await reportFeedback(turn);
      await o.afterTurn?.(turn);
    } catch (error) {
      onError(error);
    }
  }

  return {
    specificationVersion: "v3",
    async transformParams({ params }) {
      const userText = lastUserText(params.prompt);
      if (!userText) return params;
      const block = await recallFor(userText);
      return block ? { ...params, prompt: withSystem(params.prompt, block) } : params;
    },
    async wrapGenerate({ doGenerate, params }) {
      const result = await doGenerate();
      if (result.finishReason.unified !== "tool-calls") {
        const text = result.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
        await finishTurn(params, text);
      }
      return result;
    },
    async wrapStream({ doStream, params }) {
      const { stream, ...rest } = await doStream();
      let text = "";
      let toolStep = false;
      const watch = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          if (part.type === "text-delta") text += part.delta;
          if (part.type === "finish") toolStep = part.finishReason.unified === "tool-calls";
          controller.enqueue(part);
        },
        async flush() {
          if (!toolStep) await finishTurn(params, text);
        },
      });
      return { stream: stream.pipeThrough(watch), ...rest };
    },
  };
}

/** The text of the last user message, or null when the prompt has none. */
export function lastUserText(prompt: Prompt): string | null {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i];
    if (m?.role !== "user") continue;
    const text = m.content
      .flatMap((p) => (p.type === "text" ? [p.text] : []))
      .join("\n")
      .trim();
    return text || null;
  }
  return null;
}

/** The prompt with `block` as a system message after its leading system messages. */
function withSystem(prompt: Prompt, block: string): Prompt {
  const at = prompt.findIndex((m) => m.role !== "system");
  const i = at === -1 ? prompt.length : at;
  return [...prompt.slice(0, i), { role: "system", content: block }, ...prompt.slice(i)];
}

const clip = (s: string) => (s.length <= MAX_DESCRIPTION ? s : `${s.slice(0, MAX_DESCRIPTION - 1)}…`);
