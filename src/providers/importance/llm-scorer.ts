import { InvalidProviderAnswer } from "../../lib/errors.js";
import type { ChatModel, ImportanceScorer } from "../types.js";
import type { ImportanceExamples } from "./examples.js";
import { parseImportance } from "./parse.js";
import { buildImportancePrompt } from "./prompt.js";

export type LlmImportanceScorerOptions = {
  chat: ChatModel;
  examples?: ImportanceExamples;
  /** Chat calls in flight at once; default 4, gentle on local servers and rate limits. */
  concurrency?: number;
};

/** Room for "Rating: 7" and chatty variants like "I'd rate it 6 out of 10."; longer replies are cut. */
const MAX_REPLY_TOKENS = 24;
/** How much of an unusable reply goes into the error, enough to see what the model did. */
const MAX_REPLY_IN_ERROR = 200;

/** Importance by asking a chat model the Generative Agents prompt, one call per description. */
export function createLlmImportanceScorer(opts: LlmImportanceScorerOptions): ImportanceScorer {
  const concurrency = opts.concurrency ?? 4;

  async function scoreOne(description: string, agentId: string | undefined): Promise<number> {
    const { text } = await opts.chat.complete(buildImportancePrompt(description, opts.examples), {
      temperature: 0,
      maxTokens: MAX_REPLY_TOKENS,
      ...(agentId === undefined ? {} : { agentId }),
    });
    const score = parseImportance(text);
    if (score === null) {
      const reply = text.length > MAX_REPLY_IN_ERROR ? `${text.slice(0, MAX_REPLY_IN_ERROR)}…` : text;
      throw new InvalidProviderAnswer(
        `importance (${opts.chat.modelId}): no rating 1..10 in reply ${JSON.stringify(reply)}`,
        {
          reply,
        },
      );
    }
    return score;
  }

  return {
    id: `llm:${opts.chat.modelId}`,
    callPerDescription: true,
    score: (descriptions, context) =>
      mapConcurrent(descriptions, concurrency, (d) => scoreOne(d, context?.agentId)),
  };
}

/**
 * `Promise.all(items.map(fn))` with at most `limit` calls running. Fails on the first error
 * (like `Promise.all`); calls already started finish, but no new ones start after a failure.
 */
async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  async function worker(): Promise<void> {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i] as T);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  return out;
}
