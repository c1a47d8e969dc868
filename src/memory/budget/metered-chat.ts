import type { ChatModel } from "../../providers/types";
import type { LlmBudget } from "./budget";

/**
 * Wraps the chat model so every completion made for an agent (`options.agentId`) adds its reported
 * usage to that agent's day. Admission is the caller's (`budget.exhausted` before work starts):
 * a call already sent has been paid for, so it is always counted and its answer used.
 */
export function meteredChat(inner: ChatModel, budget: Pick<LlmBudget, "charge">): ChatModel {
  return {
    modelId: inner.modelId,
    async complete(messages, options = {}) {
      const res = await inner.complete(messages, options);
      if (options.agentId !== undefined) await budget.charge(options.agentId, res.usage);
      return res;
    },
  };
}
