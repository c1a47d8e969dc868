import type { RetrieveResult } from "@memstream/client";

/** One retrieve made for the model: by the middleware (into the prompt) or by the `recall` tool. */
export type Recall = {
  source: "middleware" | "tool";
  query: string;
  /** The ids of the memories shown to the model, best first. */
  memoryIds: string[];
  /** The server's whole answer (its ranking, and any field a later API version adds). */
  result: RetrieveResult;
};

/** A finished turn: what the user asked, what the model answered, and what memory showed it. */
export type Turn = {
  agentId: string;
  userText: string;
  answerText: string;
  recalled: Recall[];
};

/**
 * The recalls of the turn in progress, shared by the tools and the middleware of one
 * `memstreamMemory` so `afterTurn` sees both. Turns on one memory object are assumed to run one
 * at a time (one object per conversation).
 */
export class RecallLog {
  private pending: Recall[] = [];
  add(recall: Recall): void {
    this.pending.push(recall);
  }
  /** The turn's recalls, and a fresh log for the next turn. */
  take(): Recall[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}

/** Words too common to show that an answer drew on a memory. */
const COMMON = new Set(
  "about after also been before being from have just like more most only other over said some than that their them then there they this very what when where which while will with would your".split(
    " ",
  ),
);
const words = (text: string) =>
  new Set((text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []).filter((w) => !COMMON.has(w)));

/**
 * The default reading of which recalled memories an answer used: those whose id it names, or at
 * least half of whose distinctive words (4+ letters, not common ones) it repeats. A heuristic:
 * pass your own `cited` to `memstreamMemory` when the model cites ids or tools know better.
 */
export function citedMemories(recall: Recall, answerText: string): string[] {
  const answer = words(answerText);
  return recall.result.memories.flatMap((m) => {
    if (answerText.includes(m.id)) return [m.id];
    const own = [...words(m.description)];
    const shared = own.filter((w) => answer.has(w)).length;
    return own.length > 0 && shared * 2 >= own.length ? [m.id] : [];
  });
}
