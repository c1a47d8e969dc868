import { UnrecoverableError } from "bullmq";
import { recorded } from "../../memory/events";
import { detectSupersession } from "../../memory/supersession/detect";
import { checkedForSupersession, deferSupersession } from "../../memory/supersession/due";
import { isFinalAttempt, type Processor } from "./types";

/**
 * `memories.supersede`: for each memory of the chunk, asks the LLM whether it updates or
 * contradicts its most similar earlier memories and records the supersession it finds
 * (src/memory/supersession/detect.ts; docs/adr/0029), then clears the memory's mark
 * (`supersession_due_at`). Idempotent: a memory already superseded is not shown again, and a
 * re-run marks nothing twice. A provider fault or an unusable answer throws, so the queue backs
 * off and retries; the memories stay marked meanwhile, and the last attempt gives its memory up. A memory of an agent past its daily LLM
 * budget is not asked about (counted as deferred): its mark moves to when the budget day turns,
 * and the sweep announces it again then (docs/adr/0042).
 */
export const supersedeMemories: Processor<"memories.supersede"> = async (payload, ctx) => {
  const chat = ctx.chat;
  if (!chat) throw new UnrecoverableError("memories.supersede needs LLM_MODEL");
  let asked = 0;
  let superseded = 0;
  let deferred = 0;
  for (const item of payload.items) {
    const budget = await ctx.budget?.status(item.agentId);
    if (budget?.exhausted) {
      await deferSupersession(ctx.db, item, new Date(budget.resetsAt));
      ctx.budget?.deferred("supersession");
      deferred++;
      continue;
    }
    let r: Awaited<ReturnType<typeof detectSupersession>>;
    try {
      r = await detectSupersession({ db: ctx.db, chat }, item, ctx.embedder.modelId);
    } catch (err) {
      // The last attempt gives the memory up (unchecked costs ranking quality, not correctness), so
      // the sweep does not ask about it forever; the rest of the chunk stays marked.
      if (isFinalAttempt(ctx.job)) await checkedForSupersession(ctx.db, item);
      throw err;
    }
    await checkedForSupersession(ctx.db, item);
    if (r.asked) asked++;
    superseded += r.superseded;
  }
  if (superseded > 0) await ctx.announce(recorded(payload.items));
  return { memories: payload.items.length, asked, superseded, deferred };
};
