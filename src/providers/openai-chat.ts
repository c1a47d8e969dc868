import type OpenAI from "openai";
import { InvalidProviderAnswer } from "../lib/errors.js";
import { mapOpenAIError } from "./openai-client.js";
import type { ChatMessage, ChatModel, ChatResult } from "./types.js";

export type OpenAIChatOptions = { client: OpenAI; model: string };

/** Chat model over `POST /chat/completions` of an OpenAI-compatible server (non-streaming). */
export function createOpenAIChat(opts: OpenAIChatOptions): ChatModel {
  return {
    modelId: opts.model,
    async complete(messages: ChatMessage[], options = {}): Promise<ChatResult> {
      let res: OpenAI.ChatCompletion;
      try {
        res = await opts.client.chat.completions.create({
          model: opts.model,
          messages,
          ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          // `max_tokens` rather than `max_completion_tokens`: the latter is unknown to many compatible servers.
          ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
        });
      } catch (err) {
        throw mapOpenAIError(err, `chat (${opts.model})`);
      }
      const choice = res.choices[0];
      if (!choice) throw new InvalidProviderAnswer(`chat (${opts.model}): answer has no choices`);
      return {
        // A refusal or tool call has no content; an empty text lets callers decide what that means.
        text: choice.message.content ?? "",
        // Some servers omit usage; 0 means "not reported", not "free".
        usage: {
          promptTokens: res.usage?.prompt_tokens ?? 0,
          completionTokens: res.usage?.completion_tokens ?? 0,
        },
      };
    },
  };
}
