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
